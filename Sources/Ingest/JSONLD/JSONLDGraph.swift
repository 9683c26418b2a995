/// The JSON-LD of one page: its blocks, every node that has an `@id`, and the events.
///
/// Pages give events in many shapes, all handled here: one object, an array, an
/// `@graph` of mixed nodes (events referring to their Place by `{"@id": ...}`), an
/// `ItemList` of `ListItem`s, a `WebPage` whose `mainEntity` is the event, a Place or a
/// MusicGroup listing its `event`s, an `EventSeries` with `subEvent`s, or an API envelope
/// (`{"data": [...], "page": "1"}`) whose values hold event nodes.
struct JSONLDGraph {
    /// One event node and what it takes from its surroundings when it does not say.
    struct EventSite {
        var node: JSONLDNode
        /// From an EventSeries (`subEvent`), a Place listing events, or a performer's page.
        var inherited: Inherited
    }

    struct Inherited {
        var location: JSONLDNode?
        var performer: JSONLDNode?
        var name: JSONLDNode?
        var status: JSONLDNode?

        var isEmpty: Bool { location == nil && performer == nil && name == nil && status == nil }
    }

    /// The type names (local, lower-cased) that make a node an event Encore lists.
    static let eventTypes: Set<String> = ["event", "musicevent", "festival", "eventseries"]
    /// Types whose nodes are acts, for events listed on an act's page.
    static let performerTypes: Set<String> = ["musicgroup", "person", "performinggroup", "dancegroup", "theatergroup"]

    let roots: [JSONLDNode]
    private(set) var nodesByID: [String: JSONLDNode] = [:]
    /// Whether any root value is a JSON-LD node or a list of them.
    private(set) var hasNodes = false

    init(roots: [JSONLDNode]) {
        self.roots = roots
        for root in roots { index(root, depth: 0) }
    }

    private mutating func index(_ node: JSONLDNode, depth: Int) {
        switch node.value {
        case .array(let elements):
            for element in elements { index(element, depth: depth + 1) }
        case .object(let members):
            if members.contains(where: { $0.key == "@type" || $0.key == "@graph" }) { hasNodes = true }
            if let id = node["@id"]?.string, nodesByID[id] == nil, !Self.isReference(node) {
                nodesByID[id] = node
            }
            for member in members where member.key != "@context" { index(member.node, depth: depth + 1) }
        default:
            break
        }
    }

    /// `{"@id": "..."}` (perhaps with a `@type`): a pointer to a node described elsewhere.
    static func isReference(_ node: JSONLDNode) -> Bool {
        guard let members = node.members, node["@id"] != nil else { return false }
        return members.allSatisfy { $0.key == "@id" || $0.key == "@type" }
    }

    /// The node a reference points to, when the page describes it; otherwise the node itself.
    func resolve(_ node: JSONLDNode) -> JSONLDNode {
        guard Self.isReference(node), let id = node["@id"]?.string, let target = nodesByID[id] else { return node }
        return target
    }

    /// Local, lower-cased type names: `["Event", "schema:MusicEvent"]` → `["event", "musicevent"]`.
    static func types(of node: JSONLDNode) -> Set<String> {
        guard let type = node["@type"] else { return [] }
        var names: Set<String> = []
        for element in type.elements ?? [type] {
            if let text = element.string { names.insert(JSONLDText.localName(text).lowercased()) }
        }
        return names
    }

    static func isEvent(_ node: JSONLDNode) -> Bool {
        !types(of: node).isDisjoint(with: eventTypes)
    }

    // MARK: - Finding the events

    /// Every event node of the page, in document order, each once.
    func eventSites() -> [EventSite] {
        var collector = Collector(graph: self)
        for root in roots { collector.collect(root, inherited: Inherited(), depth: 0, impliedEvent: false) }
        return collector.sites
    }

    private struct Collector {
        let graph: JSONLDGraph
        var sites: [EventSite] = []
        /// Offsets of nodes already taken, so an event reached twice (top level and as a
        /// series' subEvent) is listed once, with what the series gives it.
        var siteByOffset: [Int: Int] = [:]

        init(graph: JSONLDGraph) {
            self.graph = graph
        }

        mutating func collect(_ node: JSONLDNode, inherited: Inherited, depth: Int, impliedEvent: Bool) {
            guard depth < 24 else { return }
            if let elements = node.elements {
                for element in elements {
                    collect(element, inherited: inherited, depth: depth + 1, impliedEvent: impliedEvent)
                }
                return
            }
            guard node.members != nil else { return }
            let node = graph.resolve(node)
            let types = JSONLDGraph.types(of: node)
            if !types.isDisjoint(with: JSONLDGraph.eventTypes) || (impliedEvent && types.isEmpty && node["startDate"] != nil) {
                event(node, types: types, inherited: inherited, depth: depth)
            } else if let graphNodes = node["@graph"] {
                collect(graphNodes, inherited: inherited, depth: depth + 1, impliedEvent: false)
            } else if let items = node["itemListElement"] {
                for item in items.elements ?? [items] {
                    let resolved = graph.resolve(item)
                    let listItem = resolved["item"].map { graph.resolve($0) }
                    collect(listItem ?? resolved, inherited: inherited, depth: depth + 1, impliedEvent: false)
                }
            } else if !types.isEmpty {
                // A page about something else that names events: `mainEntity`, or the
                // `event`s of a venue or an act.
                if let main = node["mainEntity"] {
                    collect(main, inherited: inherited, depth: depth + 1, impliedEvent: false)
                }
                for key in ["event", "events"] {
                    guard let listed = node[key] else { continue }
                    var context = inherited
                    if !types.isDisjoint(with: JSONLDGraph.performerTypes) {
                        context.performer = context.performer ?? node
                    } else if node["address"] != nil || node["geo"] != nil || types.contains(where: Self.isPlaceType) {
                        context.location = context.location ?? node
                    }
                    collect(listed, inherited: context, depth: depth + 1, impliedEvent: true)
                }
            } else if depth < 3 {
                // An envelope: `{"data": [...], "page": "1"}`.
                for member in node.members ?? [] where member.key != "@context" {
                    if member.node.elements != nil || member.node.members != nil {
                        collect(member.node, inherited: inherited, depth: depth + 1, impliedEvent: false)
                    }
                }
            }
        }

        private mutating func event(_ node: JSONLDNode, types: Set<String>, inherited: Inherited, depth: Int) {
            let children = node["subEvent"] ?? node["subEvents"]
            if types.contains("eventseries"), !types.contains("festival"), let children {
                // A series is its dates: list each, with what the series says for all.
                var context = inherited
                context.location = node["location"] ?? inherited.location
                context.performer = node["performer"] ?? node["performers"] ?? inherited.performer
                context.name = node["name"] ?? inherited.name
                context.status = node["eventStatus"] ?? inherited.status
                collect(children, inherited: context, depth: depth + 1, impliedEvent: true)
                if children.members != nil || children.elements?.isEmpty == false { return }
            }
            if types.contains("eventseries"), node["startDate"] == nil { return }  // a series with no dates yet
            var inherited = inherited
            if inherited.isEmpty, let parent = node["superEvent"].map({ graph.resolve($0) }),
                JSONLDGraph.types(of: parent).contains("eventseries")
            {
                inherited.location = parent["location"]
                inherited.performer = parent["performer"] ?? parent["performers"]
                inherited.name = parent["name"]
                inherited.status = parent["eventStatus"]
            }
            if let existing = siteByOffset[node.offset] {
                if sites[existing].inherited.isEmpty { sites[existing].inherited = inherited }
                return
            }
            siteByOffset[node.offset] = sites.count
            sites.append(EventSite(node: node, inherited: inherited))
        }

        private static func isPlaceType(_ type: String) -> Bool {
            ["place", "venue", "hall", "club", "bar", "theater", "stadium", "arena", "civicstructure", "localbusiness"]
                .contains { type.contains($0) }
        }
    }
}

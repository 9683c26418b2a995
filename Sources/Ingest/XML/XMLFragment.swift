import Foundation

/// One element of a record and everything inside it: a small tree built for one record
/// (an `<event>`, an `<artist>`) at a time, never for the whole page.
struct XMLFragment: Sendable, Hashable {
    /// The qualified name as written (`geo:lat`).
    var name: String
    var attributes: [String: String]
    /// Where the element's start tag ends, in the page as received.
    var position: XMLPosition
    /// The element's own character data (text and CDATA), not its children's, as written.
    var text: String
    var children: [XMLFragment]

    init(name: String, attributes: [String: String], position: XMLPosition, text: String = "", children: [XMLFragment] = []) {
        self.name = name
        self.attributes = attributes
        self.position = position
        self.text = text
        self.children = children
    }

    /// The first child element with this name.
    func child(_ name: String) -> XMLFragment? {
        children.first { $0.name == name }
    }

    /// Every child element with this name, in document order.
    func children(named name: String) -> [XMLFragment] {
        children.filter { $0.name == name }
    }

    /// An attribute's value, or nil when the attribute is missing or empty.
    func attribute(_ name: String) -> String? {
        guard let value = attributes[name], !value.isEmpty else { return nil }
        return value
    }

    /// The text of a child element, or nil when the child is missing or holds only white space.
    func childText(_ name: String) -> String? {
        child(name)?.trimmedText
    }

    /// The text with surrounding white space removed; nil when nothing is left.
    var trimmedText: String? {
        ListingValues.clean(text)
    }

    /// A value written either as an attribute or as a child element's text
    /// (`<venue street="..."/>` or `<venue><street>...</street></venue>`).
    func value(_ name: String) -> String? {
        attribute(name) ?? childText(name)
    }

    /// The element reached by following child names (`venue.location.geo:point`), if any.
    func descendant(_ path: some Sequence<String>) -> XMLFragment? {
        var node = self
        for name in path {
            guard let next = node.child(name) else { return nil }
            node = next
        }
        return node
    }

    /// The position of the deepest element along a dotted path of child names
    /// (`artists.artist[2]`, `venue.location.geo:point.geo:lat`); the last existing one
    /// when the path runs out.
    func position(of relativePath: String) -> XMLPosition {
        var node = self
        for component in relativePath.split(separator: ".") {
            var name = Substring(component)
            var index = 0
            if let open = component.firstIndex(of: "["), component.hasSuffix("]"),
                let number = Int(component[component.index(after: open)..<component.index(before: component.endIndex)])
            {
                name = component[..<open]
                index = number
            }
            let matches = node.children(named: String(name))
            guard index < matches.count else { break }
            node = matches[index]
        }
        return node.position
    }
}

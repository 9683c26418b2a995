/// Many small precomputed JSON fragments (one per artist, venue...) packed in one array.
///
/// Splicing a fragment into an event is then a bounds lookup and a `memcpy`, with no
/// reference counting of a million little arrays — it roughly halves the cost of writing
/// a large world.
struct FragmentTable: Sendable {
    private let storage: [UInt8]
    /// `ends[i]` is where fragment `i` stops; it starts where fragment `i - 1` stops.
    private let ends: [Int]

    init<Items: Sequence>(_ items: Items, render: (Items.Element, inout JSONBuffer) -> Void) {
        var json = JSONBuffer()
        var ends: [Int] = []
        for item in items {
            render(item, &json)
            ends.append(json.count)
        }
        storage = json.bytes
        self.ends = ends
    }

    func append(_ index: Int, to json: inout JSONBuffer) {
        let start = index == 0 ? 0 : ends[index - 1]
        storage.withUnsafeBufferPointer { buffer in
            json.raw(UnsafeBufferPointer(rebasing: buffer[start..<ends[index]]))
        }
    }
}

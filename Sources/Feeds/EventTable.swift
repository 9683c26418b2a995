/// Values by event id in two sorted arrays, with a small dictionary for ids that arrive
/// out of order. A build adds every event of its window in id order, so nearly all of
/// them append; a dictionary of a million events held twice the memory (its buckets are
/// kept under three quarters full, each the size of key and value).
struct EventTable<Value> {
    private var sortedIDs: [Int64] = []
    private var sortedValues: [Value] = []
    /// Ids of the sorted arrays that were removed.
    private var removed: Set<Int64> = []
    /// Values of ids that did not arrive after the last sorted one.
    private var unsorted: [Int64: Value] = [:]

    init() {}

    init(minimumCapacity: Int) {
        sortedIDs.reserveCapacity(minimumCapacity)
        sortedValues.reserveCapacity(minimumCapacity)
    }

    var count: Int { sortedIDs.count - removed.count + unsorted.count }
    var isEmpty: Bool { count == 0 }

    subscript(id: Int64) -> Value? {
        get {
            if !unsorted.isEmpty, let value = unsorted[id] { return value }
            guard let index = sortedIndex(of: id), removed.isEmpty || !removed.contains(id) else { return nil }
            return sortedValues[index]
        }
        set {
            if let index = sortedIndex(of: id) {
                if let newValue {
                    sortedValues[index] = newValue
                    if !removed.isEmpty { removed.remove(id) }
                } else {
                    removed.insert(id)
                }
            } else if let newValue, unsorted.isEmpty || unsorted[id] == nil, id > sortedIDs.last ?? .min {
                sortedIDs.append(id)
                sortedValues.append(newValue)
            } else {
                unsorted[id] = newValue
            }
        }
    }

    subscript(id: Int64, default value: @autoclosure () -> Value) -> Value {
        get { self[id] ?? value() }
        set { self[id] = newValue }
    }

    /// Calls `body` with every id and its value, in id order.
    func forEach(_ body: (Int64, Value) throws -> Void) rethrows {
        let late = unsorted.sorted { $0.key < $1.key }
        var next = late.startIndex
        for (index, id) in sortedIDs.enumerated() where removed.isEmpty || !removed.contains(id) {
            while next < late.endIndex, late[next].key < id {
                try body(late[next].key, late[next].value)
                next += 1
            }
            try body(id, sortedValues[index])
        }
        for (id, value) in late[next...] { try body(id, value) }
    }

    /// The ids and values `isIncluded` keeps.
    func filter(_ isIncluded: (Int64, Value) throws -> Bool) rethrows -> EventTable {
        var kept = EventTable()
        try forEach { id, value in if try isIncluded(id, value) { kept[id] = value } }
        return kept
    }

    /// The ids, in order; those that arrived in order without a copy.
    var ids: [Int64] {
        guard removed.isEmpty, unsorted.isEmpty else {
            var ids: [Int64] = []
            forEach { id, _ in ids.append(id) }
            return ids
        }
        return sortedIDs
    }

    /// The values, in id order.
    var values: [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        forEach { values.append($1) }
        return values
    }

    private func sortedIndex(of id: Int64) -> Int? {
        if let last = sortedIDs.last, id == last { return sortedIDs.count - 1 }
        var low = 0
        var high = sortedIDs.count
        while low < high {
            let middle = (low + high) / 2
            if sortedIDs[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < sortedIDs.count && sortedIDs[low] == id ? low : nil
    }
}

extension EventTable: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (Int64, Value)...) {
        for (id, value) in elements { self[id] = value }
    }
}

extension EventTable: Equatable where Value: Equatable {
    static func == (a: Self, b: Self) -> Bool {
        guard a.count == b.count else { return false }
        var equal = true
        a.forEach { id, value in equal = equal && b[id] == value }
        return equal
    }
}

extension EventTable: Sendable where Value: Sendable {}

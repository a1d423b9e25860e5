import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// `F`: how often each value of the selected column occurs among the objects shown, counted
/// by the store, in a panel with bars; Enter on a value filters the table to it.
extension BrowserApplication {
    /// The key path a column's values are counted by: an attribute as it is, a to-one
    /// relationship by its destination's name; nil for what cannot be grouped (a to-many
    /// count, binary data).
    func countedKeyPath(forColumn id: String, of entity: Entity) -> String? {
        // An added column through to-one relationships to an attribute counts as it is.
        if id.contains("."), (try? Self.columnSortability(id, from: entity, in: context.model)) == true,
           attributeType(ofKeyPath: id, from: entity).map({ ![.binary, .transformable].contains($0) }) == true {
            return id
        }
        if let attribute = entity.attribute(named: id) {
            return attribute.isTransient || [.binary, .transformable].contains(attribute.type) ? nil : id
        }
        if let relationship = entity.relationship(named: id), !relationship.isToMany,
           let destination = context.model.entity(named: relationship.destinationEntityName) {
            let names = ["name", "title", "label"].filter { destination.attribute(named: $0)?.isTransient == false }
            let key = names.first ?? destination.attributes.first { $0.type == .string && !$0.isTransient }?.name
            return key.map { "\(id).\($0)" }
        }
        return nil
    }

    func showValueCounts(by bucketing: ValueBucketing? = nil) -> EventResult {
        guard let entity = context.model.entity(named: place.entityName), let objects,
              let column = selectedKey(inForm: false) else { return .handled }
        guard let keyPath = countedKeyPath(forColumn: column, of: entity) else {
            app.showMessage("The values of \(column) cannot be counted (a to-many count, binary data or a transient value)", isError: true)
            return .redraw
        }
        let predicate = objects.arrangedObjectsRequest.predicate
        let entityName = entity.name
        let type = attributeType(ofKeyPath: keyPath, from: entity)
        let count: @Sendable (ManagedObjectContext) throws -> (ValueCounts, ValueStatistics?) = { context in
            let counts = try bucketing.flatMap { bucketing in
                try type.map { try ValueCounts(keyPath: keyPath, entityName: entityName, predicate: predicate, bucketing: bucketing, type: $0, in: context) }
            } ?? ValueCounts(keyPath: keyPath, entityName: entityName, predicate: predicate, in: context)
            let statistics = try type.map {
                try ValueStatistics(keyPath: keyPath, type: $0, entityName: entityName, predicate: predicate, in: context)
            }
            return (counts, statistics)
        }
        let show: ((ValueCounts, ValueStatistics?)) -> Void = { [weak self] found in
            self?.showCountsPanel(found.0, statistics: found.1, type: type, entityName: entityName)
        }
        // Over SQLite the count runs elsewhere: keys answer meanwhile and Esc stops it.
        guard lazyFetching else {
            do {
                show(try count(context))
            } catch {
                app.showMessage("Cannot count \(keyPath): \(error)", isError: true)
            }
            return .redraw
        }
        let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
        background.name = "counting"
        app.beginWork("Counting \(keyPath)", cancel: { background.interruptWork() }, start: { finish in
            background.perform {
                finish(Result { try count(background) })
                background.reset()
            }
        }, done: { [weak self] (result: Result<(ValueCounts, ValueStatistics?), any Error>) in
            switch result {
            case .success(let found): show(found)
            case .failure(let error): self?.app.showMessage("Cannot count \(keyPath): \(error)", isError: true)
            }
        })
        return .redraw
    }

    /// The type of the attribute a key path ends in, through to-one relationships.
    func attributeType(ofKeyPath keyPath: String, from entity: Entity) -> AttributeType? {
        context.model.attribute(atKeyPath: keyPath, from: entity)?.type
    }

    /// The next ranges `b` counts by: for numbers about 10 ranges of a round width, then about
    /// 40, then each value again; for dates years, months, weeks, days, hours, then each value
    /// (a period is skipped where it would make one range, or more than can be counted).
    static func nextBucketing(after current: ValueBucketing?, type: AttributeType, statistics: ValueStatistics?) -> ValueBucketing? {
        guard let statistics else { return nil }
        if type == .date {
            guard case .date(let low) = statistics.minimum, case .date(let high) = statistics.maximum else { return nil }
            let span = high.timeIntervalSince(low)
            let seconds: [ValueBucketing.DatePeriod: Double] = [.year: 365.25 * 86_400, .month: 30.44 * 86_400, .week: 7 * 86_400,
                                                                .day: 86_400, .hour: 3_600]
            let periods = ValueBucketing.DatePeriod.allCases.filter { period in
                let ranges = span / seconds[period]!
                return ranges >= 1 && ranges < Double(ValueBucketing.maximumBuckets) - 2
            }
            let start: Int
            if case .period(let period)? = current, let i = periods.firstIndex(of: period) { start = i + 1 } else if current == nil { start = 0 } else { return nil }
            return start < periods.count ? .period(periods[start]) : nil
        }
        guard type.isNumeric, let low = statistics.minimum.doubleValue, let high = statistics.maximum.doubleValue, high > low else { return nil }
        let widths = [10, 40].map { ValueBucketing.roundWidth(from: low, to: high, about: $0, integers: type.isInteger) }
        switch current {
        case nil: return .width(widths[0])
        case .width(let w) where w == widths[0] && widths[1] < widths[0]: return .width(widths[1])
        default: return nil
        }
    }

    /// The statistics line above the counts: objects, nil, distinct values, least and greatest, mean.
    static func statisticsText(_ counts: ValueCounts, _ statistics: ValueStatistics?, type: AttributeType?) -> String {
        var parts = ["\(counts.total) objects"]
        if counts.bucketing == nil { parts.append("\(counts.entries.count)\(counts.isCut ? "+" : "") distinct") }
        guard let statistics, let type else { return parts.joined(separator: " · ") }
        parts.insert("\(statistics.nilCount) nil", at: 1)
        let isDate = type == .date
        func text(_ value: ObjectValue) -> String {
            if case .date(let d) = value { return ValueFormat.date(showsTime: true).string(for: .date(d)) }
            if case .double(let d) = value { return String(format: "%.6g", d) }
            return ValueFormat.automatic.string(for: CellValue(value))
        }
        if statistics.minimum != .null {
            parts.append("\(isDate ? "earliest" : "min") \(text(statistics.minimum))")
            parts.append("\(isDate ? "latest" : "max") \(text(statistics.maximum))")
        }
        if let mean = statistics.mean, mean != .null { parts.append("mean \(text(mean))") }
        return parts.joined(separator: " · ")
    }

    private func showCountsPanel(_ counts: ValueCounts, statistics: ValueStatistics?, type: AttributeType?, entityName: String) {
        let source = ValueCountsSource(counts)
        let barWidth = 20
        let list = TableView(columns: [
            TableColumn("value", title: counts.keyPath, width: 30, compressedWidth: 12, fillsSpareWidth: true),
            TableColumn("count", title: "Count", width: 9, alignment: .right),
            TableColumn("percent", title: "%", width: 6, alignment: .right),
            TableColumn("bar", title: "", width: barWidth),
        ], dataSource: source)
        list.columns[0].nilText = Self.nilText
        let unsaved = context.hasChanges ? " (saved objects)" : ""
        let what = counts.bucketing.map { "\(counts.entries.filter { $0.upperBound != nil }.count) ranges (\($0))" }
            ?? "\(counts.entries.count)\(counts.isCut ? "+" : "")"
        let summary = Label(Self.statisticsText(counts, statistics, type: type))
        let rows = source.numberOfRows
        let panel = Window.listPanel(title: "Values of \(counts.keyPath) — \(what) in \(counts.total) \(entityName)\(unsaved)", header: summary,
                                     list: list, width: 90, minimumHeight: 6) { rows }
        let next = type.flatMap { Self.nextBucketing(after: counts.bucketing, type: $0, statistics: statistics) }
        if next != nil || counts.bucketing != nil {
            list.extraCommands = [
                Command("counts.ranges", title: "Count by ranges: round widths, or years, months, … (again: narrower, then each value)",
                        keys: [.character("b")], hint: next.map { "\($0)".prefix(1).uppercased() + "\($0)".dropFirst() } ?? "Each value") { [weak self, weak panel] in
                    guard let self else { return .ignored }
                    if let panel { self.app.close(panel) }
                    return self.showValueCounts(by: next)
                },
            ]
        }
        list.onActivate = { [weak self, weak panel] row in
            guard let self, row < counts.entries.count else { return }
            let clause = ValueCounts.predicate(counts.keyPath, for: counts.entries[row])
            let current = self.objects?.filterPredicate
            let combined: ObjectPredicate = current.map { .and([$0, clause]) } ?? clause
            if let panel { self.app.close(panel) }
            self.applyFilter(combined.predicateFormat)
        }
        app.show(panel)
    }
}

/// The rows of the value-counts panel: each value with its count, share and bar; a last row
/// counts the values left out.
final class ValueCountsSource: TableDataSource {
    let counts: ValueCounts
    private let largest: Int

    init(_ counts: ValueCounts) {
        self.counts = counts
        largest = counts.entries.map(\.count).max() ?? 0
    }

    var numberOfRows: Int { counts.entries.count + (counts.isCut ? 1 : 0) }

    func value(row: Int, column: String) -> CellValue {
        let isRest = row >= counts.entries.count
        let count = isRest ? counts.remainder : counts.entries[row].count
        switch column {
        case "value":
            guard !isRest else { return .text("… other values") }
            let value = counts.entries[row].value
            if let upper = counts.entries[row].upperBound, let bucketing = counts.bucketing {
                return .text(bucketing.label(from: value, to: upper))
            }
            if case .string("") = value { return .text("\"\" (empty text)") }
            return CellValue(value)
        case "count": return .integer(count)
        case "percent":
            return .text(counts.total == 0 ? "" : String(format: "%.1f", Double(count) * 100 / Double(counts.total)))
        case "bar": return isRest ? .empty : .text(Self.bar(count, of: largest, width: 20))
        default: return .empty
        }
    }

    /// A bar of `width` cells for `count` of `largest`, in eighths of a cell.
    static func bar(_ count: Int, of largest: Int, width: Int) -> String {
        guard largest > 0, width > 0, count > 0 else { return "" }
        let eighths = max(1, Int((Double(count) / Double(largest) * Double(width * 8)).rounded()))
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
    }
}

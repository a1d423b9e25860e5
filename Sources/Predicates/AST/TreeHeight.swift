/// The height of a predicate or expression tree, measured without recursion, so that a
/// tree too tall to evaluate safely can be refused before anything walks it recursively.
enum TreeHeight {
    private enum Node {
        case predicate(ObjectPredicate)
        case expression(ObjectExpression)
    }

    static func of(_ predicate: ObjectPredicate) -> Int { height(.predicate(predicate)) }
    static func of(_ expression: ObjectExpression) -> Int { height(.expression(expression)) }

    private static func height(_ root: Node) -> Int {
        var tallest = 0
        var pending: [(Node, Int)] = [(root, 1)]
        while let (node, level) = pending.popLast() {
            tallest = max(tallest, level)
            for child in children(of: node) { pending.append((child, level + 1)) }
        }
        return tallest
    }

    private static func children(of node: Node) -> [Node] {
        switch node {
        case .predicate(let p):
            switch p {
            case .true, .false: return []
            case .and(let parts), .or(let parts): return parts.map(Node.predicate)
            case .not(let inner): return [.predicate(inner)]
            case .comparison(let c): return [.expression(c.lhs), .expression(c.rhs)]
            }
        case .expression(let e):
            switch e {
            case .constant, .evaluatedObject, .keyPath, .variable: return []
            case .member(let base, _), .cast(let base, _): return [.expression(base)]
            case .aggregate(let items), .function(_, let items): return items.map(Node.expression)
            case .customFunction(let receiver, _, let arguments): return [.expression(receiver)] + arguments.map(Node.expression)
            case .index(let base, let selector):
                if case .expression(let key) = selector { return [.expression(base), .expression(key)] }
                return [.expression(base)]
            case .subquery(let collection, _, let predicate): return [.expression(collection), .predicate(predicate)]
            case .ternary(let condition, let then, let otherwise): return [.predicate(condition), .expression(then), .expression(otherwise)]
            case .setOperation(_, let lhs, let rhs): return [.expression(lhs), .expression(rhs)]
            }
        }
    }
}

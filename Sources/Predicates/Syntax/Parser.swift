import Foundation

/// A recursive-descent parser for the predicate format language.
///
/// One method per production; each doc comment gives the production in the EBNF of
/// `docs/PredicateGrammar.md`, which lists them in this order. Format arguments
/// (`%@`, `%K`, `%d`...) are taken from `arguments` as their tokens are parsed.
struct Parser {
    private let source: String
    private let chars: [Unicode.Scalar]
    private let tokens: [Token]
    private let arguments: [ObjectValue]
    private var index = 0
    private var depth = 0
    /// Outcomes of the two readings of a `(` by token index, so that backtracking over
    /// nested parentheses stays polynomial.
    private var parenthesisedPredicates: [Int: Result<(ObjectPredicate, Int), PredicateSyntaxError>] = [:]
    private var comparisons: [Int: Result<(ObjectPredicate, Int), PredicateSyntaxError>] = [:]

    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 200
    /// A parsed tree taller than this is refused too. Each nesting and each operator of a
    /// chain (`a + b + c`) is checked against `maximumDepth` as it is read; this bounds what
    /// they add up to when a chain's first operand is itself deep.
    static let maximumHeight = 2 * maximumDepth

    /// How many arguments the format's placeholders take (`%@`, `%K`, `%d`...).
    var placeholderCount: Int {
        tokens.reduce(0) { count, token in
            if case .argument(_, let index) = token.kind { return max(count, index + 1) }
            return count
        }
    }

    init(source: String, arguments: [ObjectValue]) throws(PredicateSyntaxError) {
        self.source = source
        self.chars = Array(source.unicodeScalars)
        self.tokens = try Lexer.tokenize(source)
        self.arguments = arguments
    }

    // MARK: Entry points

    /// `format = predicate END`
    mutating func parseFormat() throws(PredicateSyntaxError) -> ObjectPredicate {
        let p = try predicate()
        try expectEnd()
        if TreeHeight.of(p) > Parser.maximumHeight { throw tooDeep(at: 0) }
        return p
    }

    /// `expression_format = expression END`
    mutating func parseExpressionFormat() throws(PredicateSyntaxError) -> ObjectExpression {
        let e = try expression()
        try expectEnd()
        if TreeHeight.of(e) > Parser.maximumHeight { throw tooDeep(at: 0) }
        return e
    }

    // MARK: Predicates

    /// `predicate = or_predicate`
    private mutating func predicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        try nested { (p: inout Parser) throws(PredicateSyntaxError) in try p.orPredicate() }
    }

    /// `or_predicate = and_predicate { ("OR" | "||") and_predicate }`
    private mutating func orPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        var parts = [try andPredicate()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            advance()
            parts.append(try andPredicate())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    /// `and_predicate = not_predicate { ("AND" | "&&") not_predicate }`
    private mutating func andPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        var parts = [try notPredicate()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            advance()
            parts.append(try notPredicate())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// `not_predicate = ("NOT" | "!") not_predicate | primary_predicate`
    private mutating func notPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        if current.isKeyword("NOT") || current.isSymbol("!") {
            advance()
            let operand = try nested { (p: inout Parser) throws(PredicateSyntaxError) in try p.notPredicate() }
            return .not(operand)
        }
        return try primaryPredicate()
    }

    /// `primary_predicate = "TRUEPREDICATE" | "FALSEPREDICATE" | "(" predicate ")" | comparison`
    ///
    /// A parenthesis may also open an expression, as in `(a + b) > 2`: the predicate is
    /// tried first and the comparison read instead when that fails.
    private mutating func primaryPredicate() throws(PredicateSyntaxError) -> ObjectPredicate {
        if current.isKeyword("TRUEPREDICATE") { advance(); return .true }
        if current.isKeyword("FALSEPREDICATE") { advance(); return .false }
        if current.isSymbol("(") {
            let start = index
            let asPredicate = memoized(\.parenthesisedPredicates) { (p: inout Parser) throws(PredicateSyntaxError) in
                p.advance()
                let inner = try p.predicate()
                try p.expect(")", "')' to close the '(' from \(p.column(of: p.tokens[start]))")
                return inner
            }
            if case .success(let p) = asPredicate { return p }
            index = start
            let asComparison = memoized(\.comparisons) { (p: inout Parser) throws(PredicateSyntaxError) in
                try p.comparison()
            }
            switch (asComparison, asPredicate) {
            case (.success(let p), _):
                return p
            case (.failure(let error), .failure(let firstError)):
                // Report whichever reading got further into the input; on a tie, the predicate one.
                throw error.offset > firstError.offset ? error : firstError
            case (.failure(let error), .success):
                throw error
            }
        }
        return try comparison()
    }

    /// `comparison = [ qualifier ] expression operator [ options ] expression`
    ///
    /// `qualifier = "ANY" | "SOME" | "ALL" | "NONE"`
    private mutating func comparison() throws(PredicateSyntaxError) -> ObjectPredicate {
        var modifier = ComparisonModifier.direct
        if case .keyword(let k) = current.kind {
            switch k {
            case "ANY", "SOME": modifier = .any
            case "ALL": modifier = .all
            case "NONE": modifier = .none
            default: break
            }
            if modifier != .direct { advance() }
        }
        let lhs = try expression()
        let opToken = current
        guard let op = try comparisonOperator() else {
            throw failure("a comparison operator after \(describe(lhs))")
        }
        let options = try comparisonOptions()
        if current.kind == .end || current.isSymbol(")") || current.isKeyword("AND") || current.isKeyword("OR") {
            throw failure("a value after \(operatorText(opToken, op))")
        }
        let rhs = try expression()
        return .comparison(ComparisonPredicate(lhs, op, rhs, modifier: modifier, options: options))
    }

    /// `operator = "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
    ///           | "BETWEEN" | "IN" | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "MATCHES"`
    private mutating func comparisonOperator() throws(PredicateSyntaxError) -> ComparisonOperator? {
        let op: ComparisonOperator?
        switch current.kind {
        case .symbol(let s):
            switch s {
            case "==", "=": op = .equalTo
            case "!=", "<>": op = .notEqualTo
            case "<": op = .lessThan
            case "<=", "=<": op = .lessThanOrEqualTo
            case ">": op = .greaterThan
            case ">=", "=>": op = .greaterThanOrEqualTo
            default: op = nil
            }
        case .keyword(let k):
            switch k {
            case "BETWEEN": op = .between
            case "IN": op = .in
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            default: op = nil
            }
        default:
            op = nil
        }
        if op != nil { advance() }
        return op
    }

    /// `options = "[" { "c" | "d" | "n" } "]"`
    private mutating func comparisonOptions() throws(PredicateSyntaxError) -> ComparisonOptions {
        guard current.isSymbol("[") else { return [] }
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw failure("options c, d or n inside '[ ]'")
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw failure("options c, d or n inside '[ ]'")
            }
        }
        advance()
        try expect("]", "']' after the options")
        return options
    }

    // MARK: Expressions

    /// `expression = bitwise { ("UNION" | "INTERSECT" | "MINUS") bitwise }`
    private mutating func expression() throws(PredicateSyntaxError) -> ObjectExpression {
        try nested { (p: inout Parser) throws(PredicateSyntaxError) in
            var lhs = try p.bitwise()
            while case .identifier(let word) = p.current.kind,
                  let op = SetOperation(rawValue: word.uppercased()) {
                p.advance()
                lhs = .setOperation(op, lhs, try p.bitwise())
            }
            return lhs
        }
    }

    /// `bitwise = shift { ("&" | "|" | "^") shift }`
    private mutating func bitwise() throws(PredicateSyntaxError) -> ObjectExpression {
        var lhs = try shift()
        var chain = 0
        while case .symbol(let s) = current.kind, let name = ["&": "bitwiseAnd:with:", "|": "bitwiseOr:with:", "^": "bitwiseXor:with:"][s] {
            try chained(&chain)
            advance()
            lhs = .function(name, [lhs, try shift()])
        }
        return lhs
    }

    /// `shift = additive { ("<<" | ">>") additive }`
    private mutating func shift() throws(PredicateSyntaxError) -> ObjectExpression {
        var lhs = try additive()
        var chain = 0
        while case .symbol(let s) = current.kind, let name = ["<<": "leftshift:by:", ">>": "rightshift:by:"][s] {
            try chained(&chain)
            advance()
            lhs = .function(name, [lhs, try additive()])
        }
        return lhs
    }

    /// `additive = multiplicative { ("+" | "-") multiplicative }`
    private mutating func additive() throws(PredicateSyntaxError) -> ObjectExpression {
        var lhs = try multiplicative()
        var chain = 0
        while current.isSymbol("+") || current.isSymbol("-") {
            try chained(&chain)
            let name = current.isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            lhs = .function(name, [lhs, try multiplicative()])
        }
        return lhs
    }

    /// `multiplicative = power { ("*" | "/") power }`
    private mutating func multiplicative() throws(PredicateSyntaxError) -> ObjectExpression {
        var lhs = try power()
        var chain = 0
        while current.isSymbol("*") || current.isSymbol("/") {
            try chained(&chain)
            let name = current.isSymbol("*") ? "multiply:by:" : "divide:by:"
            advance()
            lhs = .function(name, [lhs, try power()])
        }
        return lhs
    }

    /// `power = unary { "**" unary }`
    private mutating func power() throws(PredicateSyntaxError) -> ObjectExpression {
        var lhs = try unary()
        var chain = 0
        while current.isSymbol("**") {
            try chained(&chain)
            advance()
            lhs = .function("raise:toPower:", [lhs, try unary()])
        }
        return lhs
    }

    /// `unary = "-" unary | postfix`
    ///
    /// A minus before a number is a negative number; before anything else it is `0 - x`.
    private mutating func unary() throws(PredicateSyntaxError) -> ObjectExpression {
        guard current.isSymbol("-") else { return try postfix() }
        advance()
        let operand = try nested { (p: inout Parser) throws(PredicateSyntaxError) in try p.unary() }
        if case .constant(let v) = operand, let negated = ExpressionFunction.negate(v) {
            return .constant(negated)
        }
        return .function("from:subtract:", [.constant(.int(0)), operand])
    }

    /// `postfix = primary { "." ( key_path | variable ) | "[" index "]" }`
    ///
    /// `index = "FIRST" | "LAST" | "SIZE" | expression`
    ///
    /// `$a.$b` reads the key that `$b` holds, which is what `$a[$b]` does.
    private mutating func postfix() throws(PredicateSyntaxError) -> ObjectExpression {
        var base = try primary()
        var chain = 0
        while true {
            if current.isSymbol("."), case .variable(let name) = next.kind {
                try chained(&chain)
                advance()
                advance()
                base = .index(base, .expression(.variable(name)))
            } else if current.isSymbol(".") {
                advance()
                let path = try keyPath(after: true)
                switch base {
                case .keyPath(let p): base = .keyPath(p + "." + path)
                case .member(let inner, let p): base = .member(inner, keyPath: p + "." + path)
                default: base = .member(base, keyPath: path)
                }
            } else if current.isSymbol("[") {
                try chained(&chain)
                advance()
                let selector: IndexSelector
                if current.isKeyword("FIRST") { advance(); selector = .first }
                else if current.isKeyword("LAST") { advance(); selector = .last }
                else if current.isKeyword("SIZE") { advance(); selector = .size }
                else { selector = .expression(try expression()) }
                try expect("]", "']' to close the index")
                base = .index(base, selector)
            } else {
                return base
            }
        }
    }

    /// `key_path = key { "." key }` where `key = identifier | "#" word | "@" identifier`
    ///
    /// After a dot, a reserved word is taken as a key too.
    private mutating func keyPath(after dot: Bool) throws(PredicateSyntaxError) -> String {
        var parts = [try key(afterDot: dot)]
        while current.isSymbol(".") {
            advance()
            parts.append(try key(afterDot: true))
        }
        return parts.joined(separator: ".")
    }

    private mutating func key(afterDot: Bool) throws(PredicateSyntaxError) -> String {
        switch current.kind {
        case .identifier(let s), .collectionOperator(let s):
            advance()
            return s
        case .keyword where afterDot:
            let text = String(String.UnicodeScalarView(chars[current.offset..<current.end]))
            advance()
            return text
        default:
            throw failure("a key")
        }
    }

    /// `primary = literal | argument | variable | aggregate | "(" expression ")"
    ///          | function | custom_function | subquery | cast | ternary | "SELF" | key_path`
    private mutating func primary() throws(PredicateSyntaxError) -> ObjectExpression {
        let token = current
        switch token.kind {
        case .number(let v):
            advance()
            return .constant(v)
        case .string(let s):
            advance()
            return .constant(.string(s))
        case .variable(let name):
            advance()
            return .variable(name)
        case .argument(let conversion, let argumentIndex):
            advance()
            return try argument(conversion, argumentIndex, token)
        case .keyword(let k):
            switch k {
            case "TRUE", "YES": advance(); return .constant(.bool(true))
            case "FALSE", "NO": advance(); return .constant(.bool(false))
            case "NULL", "NIL": advance(); return .constant(.null)
            case "SELF": advance(); return .evaluatedObject
            case "SUBQUERY": return try subquery()
            case "CAST": return try cast()
            default: throw failure("a value or a key")
            }
        case .symbol("{"):
            return try aggregate()
        case .symbol("("):
            advance()
            let e = try expression()
            try expect(")", "')' to close the '(' from \(column(of: token))")
            return e
        case .selector(let name):
            return try function(named: name)
        case .identifier(let name):
            if next.isSymbol("(") {
                switch name.uppercased() {
                case "FUNCTION": return try customFunction()
                case "TERNARY": return try ternary()
                default: return try function(named: name)
                }
            }
            return .keyPath(try keyPath(after: false))
        case .collectionOperator:
            return .keyPath(try keyPath(after: false))
        default:
            throw failure("a value or a key")
        }
    }

    /// `argument = "%@" | "%K" | printf_conversion`
    private func argument(_ conversion: Character, _ argumentIndex: Int, _ token: Token) throws(PredicateSyntaxError) -> ObjectExpression {
        guard argumentIndex < arguments.count else {
            throw PredicateSyntaxError(source: source, scalarOffset: token.offset,
                                       expected: "an argument for %\(conversion) (only \(arguments.count) given)",
                                       found: token.description)
        }
        let value = arguments[argumentIndex]
        func wrong(_ wanted: String) -> PredicateSyntaxError {
            PredicateSyntaxError(source: source, scalarOffset: token.offset,
                                 expected: "\(wanted) for %\(conversion)",
                                 found: "\(value.typeName) argument")
        }
        switch conversion {
        case "@":
            return .constant(value)
        case "K":
            guard case .string(let path) = value, !path.isEmpty else { throw wrong("a key path string") }
            return .keyPath(path)
        case "d", "i", "D", "u", "U", "o", "O", "x", "X", "c", "C":
            if let i = value.intValue { return .constant(.int(i)) }
            if let d = value.doubleValue, let i = Int(exactly: d.rounded(.towardZero)) { return .constant(.int(i)) }
            if conversion == "c" || conversion == "C", case .string(let s) = value, s.count == 1 {
                return .constant(value)
            }
            throw wrong("an integer")
        case "f", "F", "e", "E", "g", "G", "a", "A":
            guard let d = value.doubleValue else { throw wrong("a number") }
            return .constant(.double(d))
        case "s", "S":
            guard case .string = value else { throw wrong("a string") }
            return .constant(value)
        default:
            // %p: an object reference or anything else, taken as it is.
            return .constant(value)
        }
    }

    /// `aggregate = "{" [ expression { "," expression } ] "}"`
    ///
    /// An aggregate of constants is a constant array.
    private mutating func aggregate() throws(PredicateSyntaxError) -> ObjectExpression {
        let open = current
        advance()
        var elements: [ObjectExpression] = []
        if !current.isSymbol("}") {
            elements.append(try expression())
            while current.isSymbol(",") {
                advance()
                elements.append(try expression())
            }
        }
        try expect("}", "'}' or ',' in the aggregate that opens at \(column(of: open))")
        return ObjectExpression.aggregateFolding(elements)
    }

    /// `function = function_name "(" [ expression { "," expression } ] ")"`
    ///
    /// `function_name = identifier | selector` (`sum`, `sum:`, `add:to:`, `now`, ...)
    private mutating func function(named name: String) throws(PredicateSyntaxError) -> ObjectExpression {
        let nameToken = current
        guard let function = ExpressionFunction.named(name) else {
            throw PredicateSyntaxError(source: source, scalarOffset: nameToken.offset,
                                       expected: "a function name such as sum, count, now or uppercase",
                                       found: "'\(name)'")
        }
        advance()
        let args = try argumentList()
        guard function.arity.contains(args.count) else {
            throw PredicateSyntaxError(source: source, scalarOffset: nameToken.offset,
                                       expected: "\(function.arityDescription) for \(function.name)",
                                       found: "\(args.count)")
        }
        return .function(function.name, args)
    }

    private mutating func argumentList() throws(PredicateSyntaxError) -> [ObjectExpression] {
        try expect("(", "'('")
        var args: [ObjectExpression] = []
        if !current.isSymbol(")") {
            args.append(try expression())
            while current.isSymbol(",") {
                advance()
                args.append(try expression())
            }
        }
        try expect(")", "')' or ',' in the argument list")
        return args
    }

    /// `custom_function = "FUNCTION" "(" expression "," expression { "," expression } ")"`
    private mutating func customFunction() throws(PredicateSyntaxError) -> ObjectExpression {
        advance()
        try expect("(", "'('")
        let receiver = try expression()
        try expect(",", "',' and a selector string after the receiver of FUNCTION")
        let selectorToken = current
        guard case .constant(.string(let selector)) = try expression(), !selector.isEmpty else {
            throw PredicateSyntaxError(source: source, scalarOffset: selectorToken.offset,
                                       expected: "a selector string such as \"uppercase:\"",
                                       found: selectorToken.description)
        }
        var args: [ObjectExpression] = []
        while current.isSymbol(",") {
            advance()
            args.append(try expression())
        }
        try expect(")", "')' or ',' in FUNCTION")
        return .customFunction(receiver: receiver, selector: selector, arguments: args)
    }

    /// `subquery = "SUBQUERY" "(" expression "," variable "," predicate ")"`
    private mutating func subquery() throws(PredicateSyntaxError) -> ObjectExpression {
        advance()
        try expect("(", "'(' after SUBQUERY")
        let collection = try expression()
        try expect(",", "',' after the collection of SUBQUERY")
        guard case .variable(let variable) = current.kind else {
            throw failure("a variable such as $x in SUBQUERY")
        }
        advance()
        try expect(",", "',' after the variable of SUBQUERY")
        let p = try predicate()
        try expect(")", "')' to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: p)
    }

    /// `cast = "CAST" "(" expression "," expression ")"`
    ///
    /// `CAST(number, "NSDate")` is a date constant and `CAST("1.5", "NSDecimalNumber")` a
    /// decimal constant, which is how those constants are written.
    private mutating func cast() throws(PredicateSyntaxError) -> ObjectExpression {
        advance()
        try expect("(", "'(' after CAST")
        let value = try expression()
        try expect(",", "',' and a type name after the value of CAST")
        let typeToken = current
        guard case .constant(.string(let type)) = try expression(),
              ObjectExpression.castTypes.contains(type) else {
            throw PredicateSyntaxError(source: source, scalarOffset: typeToken.offset,
                                       expected: "a type name \"NSDate\", \"NSNumber\", \"NSString\" or \"NSDecimalNumber\"",
                                       found: typeToken.description)
        }
        try expect(")", "')' to close CAST")
        return ObjectExpression.castFolding(value, type: type)
    }

    /// `ternary = "TERNARY" "(" predicate "," expression "," expression ")"`
    private mutating func ternary() throws(PredicateSyntaxError) -> ObjectExpression {
        advance()
        try expect("(", "'(' after TERNARY")
        let condition = try predicate()
        try expect(",", "',' after the condition of TERNARY")
        let a = try expression()
        try expect(",", "',' after the second argument of TERNARY")
        let b = try expression()
        try expect(")", "')' to close TERNARY")
        return .ternary(condition, a, b)
    }

    // MARK: Tokens

    private var current: Token { tokens[index] }
    private var next: Token { tokens[min(index + 1, tokens.count - 1)] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func expect(_ symbol: String, _ expected: String) throws(PredicateSyntaxError) {
        guard current.isSymbol(symbol) else { throw failure(expected) }
        advance()
    }

    private func expectEnd() throws(PredicateSyntaxError) {
        guard current.kind == .end else {
            throw failure(index == 0 ? "a predicate" : "an operator such as AND or OR, or the end of input")
        }
    }

    private func failure(_ expected: String) -> PredicateSyntaxError {
        PredicateSyntaxError(source: source, scalarOffset: current.offset, expected: expected,
                             found: current.description)
    }

    /// Runs a reading from the current token once; later calls at the same token replay
    /// its outcome and position.
    private mutating func memoized(
        _ table: WritableKeyPath<Parser, [Int: Result<(ObjectPredicate, Int), PredicateSyntaxError>]>,
        _ body: (inout Parser) throws(PredicateSyntaxError) -> ObjectPredicate
    ) -> Result<ObjectPredicate, PredicateSyntaxError> {
        let start = index
        let outcome: Result<(ObjectPredicate, Int), PredicateSyntaxError>
        if let known = self[keyPath: table][start] {
            outcome = known
        } else {
            do {
                let p = try body(&self)
                outcome = .success((p, index))
            } catch {
                outcome = .failure(error)
            }
            self[keyPath: table][start] = outcome
        }
        switch outcome {
        case .success(let (p, end)):
            index = end
            return .success(p)
        case .failure(let e):
            return .failure(e)
        }
    }

    private mutating func nested<T>(_ body: (inout Parser) throws(PredicateSyntaxError) -> T) throws(PredicateSyntaxError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Parser.maximumDepth else { throw tooDeep(at: current.offset) }
        return try body(&self)
    }

    /// Counts one more operator of a chain: `a + b + c` nests as `(a + b) + c`, so each
    /// operator takes a level as a parenthesis does.
    private func chained(_ length: inout Int) throws(PredicateSyntaxError) {
        length += 1
        guard depth + length <= Parser.maximumDepth else { throw tooDeep(at: current.offset) }
    }

    private func tooDeep(at offset: Int) -> PredicateSyntaxError {
        PredicateSyntaxError(source: source, scalarOffset: offset,
                             expected: "at most \(Parser.maximumDepth) levels of nesting", found: "deeper nesting")
    }

    /// `line:column` of a token, for messages that point back at an opening bracket.
    private func column(of token: Token) -> String {
        let e = PredicateSyntaxError(source: source, scalarOffset: token.offset, expected: "", found: "")
        return "\(e.line):\(e.column)"
    }

    private func describe(_ e: ObjectExpression) -> String {
        let text = e.expressionFormat
        return text.count > 40 ? "the expression" : text
    }

    private func operatorText(_ token: Token, _ op: ComparisonOperator) -> String {
        op.rawValue
    }
}

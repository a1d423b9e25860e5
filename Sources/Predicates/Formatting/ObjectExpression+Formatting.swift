import Foundation

extension ObjectExpression: CustomStringConvertible {
    /// The canonical format of the expression.
    ///
    /// ```swift
    /// try ObjectExpression(format: "a+b*2").expressionFormat   // a + (b * 2)
    /// ```
    public var expressionFormat: String { ExpressionFormatter.format(self) }

    /// The canonical format of the expression.
    public var description: String { expressionFormat }
}

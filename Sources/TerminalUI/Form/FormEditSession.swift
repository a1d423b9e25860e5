/// Edits a form holds together until the form is left: leaving commits them all, Esc drops
/// them all. What the form is bound to keeps them (a scratch copy of its objects, say).
///
/// ```swift
/// form.session = detail          // the binding that holds the edits
/// ```
public protocol FormEditSession: AnyObject {
    /// Whether edits are held that neither a commit nor a discard has ended.
    var hasEdits: Bool { get }
    /// Hands the held edits on; when it throws, they stay held.
    func commitEdits() throws
    /// Forgets the held edits: the fields show the values as they were.
    func discardEdits()
}

/// A rectangle of the screen that draws itself and answers events.
///
/// Subclasses override `draw(in:)`, `handle(_:)` and `commands`. Frames are in the parent's
/// coordinates; a view's `layout` closure places its subviews when the screen changes size.
///
///     let label = Label("Name:")
///     window.addSubview(label)
///     window.layout = { window, bounds in label.frame = Rect(x: 1, y: 1, width: 10, height: 1) }
open class View {
    /// Position and size, in the superview's coordinates (the screen's for a window).
    public var frame: Rect
    /// The view this one is a subview of; nil for a view not inside another, such as a window.
    public private(set) weak var superview: View?
    /// The views inside this one, drawn in order, so that later ones are on top.
    public private(set) var subviews: [View] = []
    /// Whether the view is left out, with its subviews: not drawn, not hit by clicks, not given focus.
    public var isHidden = false
    /// Places subviews inside `bounds` (the area inside any border) after a size change.
    public var layout: ((View, Rect) -> Void)?

    /// A view at `frame`, in its superview's coordinates; zero until a layout places it.
    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    /// Whether the view takes keyboard focus (Tab stops on it, clicks focus it).
    open var canFocus: Bool { false }

    /// The view's own area: its size at (0, 0).
    public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

    /// The area inside any decoration where subviews go.
    open var contentBounds: Rect { bounds }

    /// Add `view` on top of the subviews, taking it out of its superview first.
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        view.superview = self
        subviews.append(view)
    }

    /// Take the view out of its superview, if it has one.
    public func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// The window this view is in.
    public var window: Window? {
        var view: View? = self
        while let v = view {
            if let w = v as? Window { return w }
            view = v.superview
        }
        return nil
    }

    /// Whether this view has the keyboard: it is its window's focused view and the window is active.
    public var hasFocus: Bool {
        guard let window else { return false }
        return window.isKey && window.focusedView === self
    }

    /// The frame in screen coordinates.
    public var absoluteFrame: Rect {
        var rect = frame
        var parent = superview
        while let p = parent {
            rect = rect.offsetBy(dx: p.frame.x, dy: p.frame.y)
            parent = p.superview
        }
        return rect
    }

    /// Run the layout closure, then lay out subviews.
    open func layoutSubviews() {
        layout?(self, contentBounds)
        for view in subviews { view.layoutSubviews() }
    }

    /// Draw into a canvas the size of `bounds`. The default draws the subviews.
    open func draw(in canvas: Canvas) {
        drawSubviews(in: canvas)
    }

    /// Draw each subview that is not hidden into its frame of `canvas`, in order.
    public func drawSubviews(in canvas: Canvas) {
        for view in subviews where !view.isHidden {
            view.draw(in: canvas.subcanvas(view.frame))
        }
    }

    /// React to an event. Keys arrive while the view or a subview has focus; mouse positions
    /// are in the view's coordinates.
    open func handle(_ event: Event) -> EventResult { .ignored }

    /// Commands offered while the view or a subview has focus.
    open var commands: [Command] { [] }

    /// Whether the view takes typed characters for itself now (an editor is open): then
    /// no command bound to a plain character can be reached, and none is offered.
    open var capturesTyping: Bool { false }

    /// Takes pasted text (line breaks already turned to spaces) into the open editor at once,
    /// as one edit; nil when the view has no editor that can, and the text is typed instead.
    open func insertPastedText(_ text: String) -> EventResult? { nil }

    /// Called when focus moves from this view to another view of its window.
    open func focusDidLeave() {}

    /// The deepest visible view at a point in this view's coordinates.
    public func hitTest(_ point: Point) -> View? {
        guard bounds.contains(point) else { return nil }
        for view in subviews.reversed() where !view.isHidden {
            let local = Point(x: point.x - view.frame.x, y: point.y - view.frame.y)
            if let hit = view.hitTest(local) { return hit }
        }
        return self
    }

    /// Every focusable visible view in this subtree, in order.
    public var focusableViews: [View] {
        var result: [View] = canFocus ? [self] : []
        for view in subviews where !view.isHidden { result += view.focusableViews }
        return result
    }
}

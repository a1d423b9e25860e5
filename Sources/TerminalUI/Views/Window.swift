/// A titled, bordered area holding views; a floating window (panel) overlaps others and can close.
///
///     let panel = Window(title: "Categories", floating: true)
///     panel.placement = { area in area.centered(Size(width: 30, height: 10)) }
///     app.show(panel)
open class Window: View {
    /// Shown in the top border; on a floating window, cut short of the close marker.
    public var title: String
    /// Whether a box is drawn around the window; subviews are then placed inside it.
    public var hasBorder: Bool
    /// Overlaps the windows below it and can be closed with Esc or a click on `[x]`.
    public var isFloating: Bool
    /// While shown, only this window gets events.
    public var isModal: Bool
    /// Where the window goes within the area between menu bar and status bar.
    public var placement: ((Rect) -> Rect)?
    /// The view that gets keys; the one that had them is told it lost them.
    public var focusedView: View? {
        didSet { if oldValue !== focusedView { oldValue?.focusDidLeave() } }
    }
    /// Set by the application on the window that gets keys.
    public internal(set) var isKey = false
    /// The application showing this window.
    public internal(set) weak var application: Application?
    /// Called after the window closes.
    public var onClose: (() -> Void)?

    /// A window titled `title`; `border`, `floating` and `modal` set `hasBorder`, `isFloating` and `isModal`.
    public init(title: String = "", border: Bool = true, floating: Bool = false, modal: Bool = false) {
        self.title = title
        self.hasBorder = border
        self.isFloating = floating
        self.isModal = modal
        super.init()
    }

    /// The bounds inside the border, or the whole bounds without one.
    open override var contentBounds: Rect { hasBorder ? bounds.insetBy(1) : bounds }

    /// The close marker's position in window coordinates, for floating windows.
    var closeMarkerX: Int? { isFloating && hasBorder && frame.width >= 10 ? frame.width - 5 : nil }

    /// Fills the window, draws the border with the title (and `[x]` on a floating window),
    /// then the subviews.
    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(bounds, style: theme.normal)
        if hasBorder {
            let style = isKey ? theme.focusedBorder : theme.border
            // A title that would run into the close marker is cut short of it.
            let shown = closeMarkerX.map { title.truncated(toWidth: max(1, $0 - 5)) } ?? title
            canvas.box(bounds, style: style, title: shown.isEmpty ? nil : shown,
                       titleStyle: isKey ? theme.title.bolded : theme.title)
            if let x = closeMarkerX { canvas.write("[x]", x: x, y: 0, style: style) }
        }
        drawSubviews(in: canvas)
    }

    /// Esc closes a floating window, and so does a click on its `[x]`; other events are ignored.
    open override func handle(_ event: Event) -> EventResult {
        if isFloating, case .key(.escape) = event { return [.handled, .closeScreen, .needsRedraw] }
        if case let .mouse(mouse) = event, mouse.kind == .click || mouse.kind == .press,
           let x = closeMarkerX, mouse.position.y == 0, (x..<(x + 3)).contains(mouse.position.x) {
            return [.handled, .closeScreen, .needsRedraw]
        }
        return .ignored
    }

    /// Give focus to a view of this window.
    public func focus(_ view: View) {
        precondition(view.window === self, "focus(\(type(of: view))) on a window that does not hold it")
        focusedView = view
    }

    /// Move focus to the next (or previous) focusable view; returns whether it moved.
    @discardableResult
    public func focusNext(forward: Bool = true) -> Bool {
        let views = focusableViews.filter { $0 !== self }
        guard views.count > 1 else {
            if focusedView == nil, let first = views.first { focusedView = first; return true }
            return false
        }
        let current = views.firstIndex { $0 === focusedView } ?? (forward ? -1 : 0)
        let next = (current + (forward ? 1 : -1) + views.count) % views.count
        focusedView = views[next]
        return true
    }

    /// The responders from the focused view up to this window.
    public var responderChain: [View] {
        var chain: [View] = []
        var view: View? = focusedView ?? self
        while let v = view {
            chain.append(v)
            if v === self { break }
            view = v.superview
        }
        if chain.last !== self { chain.append(self) }
        return chain
    }
}

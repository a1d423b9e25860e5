/// A driver without a terminal: frames stay in memory, events come from a script,
/// and time is a `VirtualClock` that moves only through `wait(_:)`. When the script runs
/// out the driver reports `.inputClosed`, so a loop over it always ends.
///
///     let driver = MemoryDriver(size: Size(width: 40, height: 10))
///     driver.type("jj<Enter>")
///     driver.resize(to: Size(width: 30, height: 8))
///     // … run the application …
///     driver.screenLines
public final class MemoryDriver: TerminalDriver {
    private enum Item {
        case event(Event)
        case pause(Double)
    }

    /// The screen's size in cells: as created, then as the last resize event read set it.
    public private(set) var size: Size
    /// The colour support the driver reports, as given when it was made.
    public var colorSupport: ColorSupport
    /// The driver's clock (also its `clock`): it moves only as queued pauses are read, or when a
    /// test advances it.
    public let virtualClock: VirtualClock
    /// The event loop's clock: `virtualClock`.
    public var clock: TimeSource { virtualClock }

    private var queue: [Item] = []
    private var head = 0
    /// The last frame drawn.
    public private(set) var screen: ScreenBuffer?
    /// How many frames were drawn.
    public private(set) var drawCount = 0
    /// How many cells the last frame changed.
    public private(set) var lastChangedCells = 0
    /// How many times the bell rang or the screen flashed.
    public private(set) var bellCount = 0
    /// How many times the application asked to suspend (Ctrl-Z); the process is never stopped.
    public private(set) var suspendCount = 0
    /// Whether the driver is started: `start()` was called and `stop()` has not been since.
    public private(set) var isStarted = false

    /// A driver with a screen of `size` that reports `colorSupport`, on the given clock, with
    /// nothing queued yet.
    public init(size: Size = Size(width: 80, height: 24), colorSupport: ColorSupport = .palette256,
                clock: VirtualClock = VirtualClock()) {
        self.size = size
        self.colorSupport = colorSupport
        self.virtualClock = clock
    }

    // MARK: Script

    /// Queue keys in script notation: `"jj<Enter>"`, `"<C-a>"`, `"<F10>"`.
    public func type(_ script: String) {
        for key in Key.parse(script) { queue.append(.event(.key(key))) }
    }

    /// Queue keys.
    public func press(_ keys: Key...) {
        for key in keys { queue.append(.event(.key(key))) }
    }

    /// Queue any event.
    public func send(_ event: Event) { queue.append(.event(event)) }

    /// Queue a mouse click at a screen position.
    public func click(x: Int, y: Int) { send(.mouse(MouseEvent(.click, at: Point(x: x, y: y)))) }

    /// Queue a change of terminal size; the size changes when the event is read.
    public func resize(to newSize: Size) { send(.resize(newSize)) }

    /// Queue a pause: the virtual clock advances by `seconds` before later events arrive.
    public func wait(_ seconds: Double) { queue.append(.pause(seconds)) }

    /// Whether every queued event has been read.
    public var isIdle: Bool { head >= queue.count }

    /// The last frame's rows as text.
    public var screenLines: [String] { screen?.lines ?? [] }

    // MARK: TerminalDriver

    /// Marks the driver started; there is no terminal to take over.
    public func start() throws { isStarted = true }
    /// Marks the driver stopped.
    public func stop() { isStarted = false }

    /// Keeps a copy of the frame as `screen`, counting the frame and the cells it changed.
    public func draw(_ frame: ScreenBuffer) {
        lastChangedCells = frame.changes(since: screen).reduce(0) { $0 + $1.cells.count }
        screen = frame.copy()
        drawCount += 1
    }

    /// Forgets the last frame, so the next one counts every cell as changed.
    public func invalidate() { screen = nil }

    /// The next queued event, advancing the virtual clock through pauses; nil when a pause
    /// outlasts `timeout` or a poll finds nothing, `.inputClosed` when the script has ended.
    public func nextEvent(timeout: Double?) -> Event? {
        while head < queue.count {
            switch queue[head] {
            case let .event(event):
                head += 1
                if case let .resize(newSize) = event { size = newSize }
                return event
            case let .pause(remaining):
                if let timeout, timeout < remaining {
                    virtualClock.advance(by: timeout)
                    queue[head] = .pause(remaining - timeout)
                    return nil
                }
                virtualClock.advance(by: remaining)
                head += 1
                return nil
            }
        }
        // A poll finds nothing waiting, as on a terminal; a wait finds the script ended.
        if timeout == 0 { return nil }
        return .inputClosed
    }

    /// What was put on the clipboard, in order.
    public private(set) var clipboard: [String] = []
    /// Adds the text to `clipboard`.
    public func copyToClipboard(_ text: String) { clipboard.append(text) }

    /// Counts the bell in `bellCount`.
    public func bell() { bellCount += 1 }
    /// Counts the flash in `bellCount`, as a bell.
    public func flash() { bellCount += 1 }
    /// Counts the request in `suspendCount`; the process goes on.
    public func suspend() { suspendCount += 1 }
}

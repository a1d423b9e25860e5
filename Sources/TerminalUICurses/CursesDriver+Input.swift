import TerminalUI
@preconcurrency import CNcursesw

extension CursesDriver {
    /// Reads the next key, paste, mouse event, resize or signal, or nil when `timeout` seconds
    /// pass first; `.inputClosed` when not started or when input has ended.
    public func nextEvent(timeout: Double?) -> Event? {
        guard isActive, let window = shim_stdscr() else { return .inputClosed }
        // Keys typed while the loop was busy, read by the Esc watch, come first; `ungetch`
        // puts each at the head of the input, so they go back last first.
        if let escapeWatch {
            for byte in escapeWatch.loopIsReading().reversed() { ungetch(Int32(byte)) }
        }
        let event = readEvent(window: window, timeout: timeout)
        if event != nil { escapeWatch?.loopIsBusy() }
        return event
    }

    private func readEvent(window: UnsafeMutablePointer<WINDOW>, timeout: Double?) -> Event? {
        let deadline = timeout.map { clock.now + $0 }
        while true {
            if let caught = SignalTrap.take() { return .signal(Self.signal(caught.number)) }
            // Back from a suspend: the whole screen is drawn again, at the terminal's size now.
            if SignalTrap.takeContinued() {
                invalidate()
                return .resize(Size(width: Int(getmaxx(window)), height: Int(getmaxy(window))))
            }
            let remaining = deadline.map { max(0, $0 - clock.now) }
            // Wake at least every 100 ms so a signal turns into an event promptly.
            let slice = min(remaining ?? 0.1, 0.1)
            wtimeout(window, Int32((slice * 1000).rounded(.up)))
            let started = clock.now
            var code: wint_t = 0
            let status = wget_wch(window, &code)
            if status == OK {
                quickErrors = 0
                if code == 0x1B, let text = readPaste(window: window) { return .paste(text) }
                return .key(readCharacter(code, window: window))
            }
            if status == KEY_CODE_YES {
                quickErrors = 0
                if let event = decodeKeyCode(Int32(code), window: window) { return event }
                continue
            }
            // ERR: a timeout, an interrupted read, or input that has ended.
            if slice >= 0.05, clock.now - started < slice / 4, SignalTrap.peek() == false {
                quickErrors += 1
                if quickErrors > 20 { return .inputClosed }
            }
            if let deadline, clock.now >= deadline { return nil }
        }
    }

    static func signal(_ number: Int32) -> TerminalSignal {
        switch number {
        case SIGTERM: return .terminate
        case SIGHUP: return .hangup
        default: return .interrupt
        }
    }

    /// After an ESC: the text of a bracketed paste when `[200~` follows at once, read up to
    /// `ESC [201~`; otherwise nil, with what was read after the ESC given back.
    private func readPaste(window: UnsafeMutablePointer<WINDOW>) -> String? {
        wtimeout(window, 0)
        var lookahead: [wint_t] = []
        for expected in "[200~".unicodeScalars {
            var next: wint_t = 0
            guard wget_wch(window, &next) == OK else { break }
            lookahead.append(next)
            if next != wint_t(expected.value) { break }
        }
        guard lookahead.count == 5, lookahead.last == wint_t(("~" as Unicode.Scalar).value) else {
            // Given back last first: ncurses returns the most recently pushed character first.
            for code in lookahead.reversed() { unget_wch(wchar_t(bitPattern: UInt32(code))) }
            return nil
        }
        let end = Array("\u{1B}[201~".unicodeScalars)
        var scalars: [Unicode.Scalar] = []
        // The terminal sends the paste at once; a pause this long means its end was lost.
        wtimeout(window, 500)
        while scalars.count < 1_000_000 {
            var next: wint_t = 0
            let status = wget_wch(window, &next)
            if status == ERR { break }
            guard status == OK, let scalar = Unicode.Scalar(UInt32(next)) else { continue }
            scalars.append(scalar)
            if scalars.count >= end.count, Array(scalars.suffix(end.count)) == end {
                scalars.removeLast(end.count)
                break
            }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// A typed character; ESC followed at once by another character is Alt with that character.
    private func readCharacter(_ code: wint_t, window: UnsafeMutablePointer<WINDOW>) -> Key {
        guard let scalar = Unicode.Scalar(UInt32(code)) else { return .character("?") }
        if scalar.value == 0x1B {
            wtimeout(window, 0)
            var next: wint_t = 0
            let status = wget_wch(window, &next)
            if status == OK, let follower = Unicode.Scalar(UInt32(next)), follower.value >= 0x20 {
                return .alt(Character(follower))
            }
            if status == KEY_CODE_YES || status == OK { unget_wch(wchar_t(bitPattern: UInt32(next))) }
            return .escape
        }
        return Key.fromCharacter(Character(scalar))
    }

    private func decodeKeyCode(_ code: Int32, window: UnsafeMutablePointer<WINDOW>) -> Event? {
        switch code {
        case KEY_RESIZE:
            return .resize(Size(width: Int(getmaxx(window)), height: Int(getmaxy(window))))
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let point = Point(x: Int(event.x), y: Int(event.y))
            let state = event.bstate
            if state & shim_button4_pressed() != 0 { return .mouse(MouseEvent(.wheelUp, at: point)) }
            if state & shim_button5_pressed() != 0 { return .mouse(MouseEvent(.wheelDown, at: point)) }
            if state & shim_button1_double_clicked() != 0 { return .mouse(MouseEvent(.doubleClick, at: point)) }
            if state & (shim_button1_pressed() | shim_button1_clicked()) != 0 {
                // Clicks are reported at once (no click interval), so a double click is two
                // presses at the same place within 400 ms.
                let now = clock.now
                if let last = lastClick, last.point == point, now - last.time < 0.4 {
                    lastClick = nil
                    return .mouse(MouseEvent(.doubleClick, at: point))
                }
                lastClick = (point, now)
                return .mouse(MouseEvent(.click, at: point))
            }
            if state & shim_button1_released() != 0 { return .mouse(MouseEvent(.release, at: point)) }
            return nil
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_IC: return .key(.insert)
        case KEY_DC: return .key(.delete)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_ENTER: return .key(.enter)
        case KEY_BTAB: return .key(.backTab)
        default:
            if code > KEY_F0, code <= KEY_F0 + 24 { return .key(.function(Int(code - KEY_F0))) }
            if let name = keyname(code).map({ String(cString: $0) }) {
                if name.hasPrefix("kLFT") { return .key(.controlLeft) }
                if name.hasPrefix("kRIT") { return .key(.controlRight) }
            }
            return nil
        }
    }
}

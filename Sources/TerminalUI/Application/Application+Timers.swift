struct TimerRecord {
    let id: TimerID
    var fireAt: Double
    let interval: Double?
    let action: (Application) -> EventResult
}

extension Application {
    /// Run `action` after `delay` seconds, and every `repeating` seconds after that if given.
    ///
    ///     app.schedule(after: 60, repeating: 60) { app in checkDueTasks(app) }
    @discardableResult
    public func schedule(after delay: Double, repeating interval: Double? = nil,
                         action: @escaping (Application) -> EventResult) -> TimerID {
        precondition(interval.map { $0 > 0 } ?? true, "a repeating timer needs a positive interval, not \(interval!)")
        // A new number each time: a timer's ID never names a later timer, so cancelling one
        // that has fired or gone stops nothing else.
        let id = TimerID(rawValue: nextTimerID)
        nextTimerID += 1
        timers.append(TimerRecord(id: id, fireAt: driver.clock.now + max(0, delay), interval: interval, action: action))
        return id
    }

    /// Stop a timer.
    public func cancelTimer(_ id: TimerID) {
        timers.removeAll { $0.id == id }
    }

    var nextTimerDeadline: Double? { timers.map(\.fireAt).min() }

    func fireDueTimers() {
        let now = driver.clock.now
        for id in timers.filter({ $0.fireAt <= now }).sorted(by: { $0.fireAt < $1.fireAt }).map(\.id) {
            handle(.timer(id))
        }
    }

    func fireTimer(_ id: TimerID) -> EventResult {
        guard let index = timers.firstIndex(where: { $0.id == id }) else { return .ignored }
        let timer = timers[index]
        if let interval = timer.interval {
            timers[index].fireAt = max(timer.fireAt + interval, driver.clock.now)
        } else {
            timers.remove(at: index)
        }
        let result = timer.action(self)
        apply(result, to: keyWindow)
        return result.union(.handled)
    }
}

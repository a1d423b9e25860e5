import Foundation

/// Dates as `yyyy-MM-dd HH:mm` in the local time zone, and back.
enum DateText {
    static func calendar() -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }

    static func string(from date: Date, showsTime: Bool) -> String {
        let c = calendar().dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = "\(pad(c.year!, 4))-\(pad(c.month!, 2))-\(pad(c.day!, 2))"
        return showsTime ? day + " \(pad(c.hour!, 2)):\(pad(c.minute!, 2))" : day
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

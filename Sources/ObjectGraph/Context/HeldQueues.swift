import Foundation

/// The context queues a thread holds while it runs a `performAndWait` block of another
/// queue.
///
/// `performAndWait` blocks its caller until the block has run, so every queue the caller was
/// on stays idle meanwhile: the thread that runs the block has them to itself. Core Data
/// counts them as the block's own — a child on a private queue, saved in `performAndWait`
/// from the main thread, pushes into its main-queue parent at once — and so does the
/// context here, through this per-thread list. Without it the push would wait for the main
/// queue, which waits for the push.
///
/// Only `performAndWait` sets the list, for the run of its block, on the thread that runs it;
/// `perform` blocks and new tasks start without it, since they run when the caller no longer
/// waits.
enum HeldQueues {
    /// The thread-specific slot: an unretained `Tokens` that the frame setting it keeps alive.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "no thread-specific key for the held context queues (\(status))")
        return key
    }()

    /// An immutable list of queue tokens, shared by reference through the slot.
    private final class Tokens: Sendable {
        let values: [Int]
        init(_ values: [Int]) { self.values = values }
    }

    /// The tokens the calling thread holds through enclosing `performAndWait` blocks.
    private static var inherited: [Int] {
        guard let pointer = pthread_getspecific(key) else { return [] }
        return Unmanaged<Tokens>.fromOpaque(pointer).takeUnretainedValue().values
    }

    /// Whether the calling thread holds the queue with `token` through an enclosing
    /// `performAndWait`.
    static func contains(_ token: Int) -> Bool {
        guard let pointer = pthread_getspecific(key) else { return false }
        return Unmanaged<Tokens>.fromOpaque(pointer).takeUnretainedValue().values.contains(token)
    }

    /// Every queue the calling thread holds now: the queue whose block it runs, the main
    /// queue on the main thread, and those it holds through enclosing blocks.
    static func ofCallingThread() -> [Int] {
        var tokens = inherited
        if let current = DispatchQueue.getSpecific(key: ManagedObjectContext.queueKey) { tokens.append(current) }
        if Thread.isMainThread { tokens.append(ManagedObjectContext.mainQueueToken) }
        return tokens
    }

    /// Runs `body` with `tokens` as the calling thread's held queues, then puts back what the
    /// thread held before.
    static func holding<T>(_ tokens: [Int], _ body: () throws -> T) rethrows -> T {
        if tokens.isEmpty, pthread_getspecific(key) == nil { return try body() }
        let previous = pthread_getspecific(key)
        let box = Tokens(tokens)
        pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
        defer {
            pthread_setspecific(key, previous)
            withExtendedLifetime(box) {}
        }
        return try body()
    }
}

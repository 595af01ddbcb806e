import Foundation
import YOLOServing
import Testing

struct ThreadHandoffTests {
    struct Refused: Error, Equatable { let code: Int }

    /// Arrays filled on threads of their own come back whole; under `make sanitize-thread` the
    /// task's reads of what each thread wrote must not be reported, however the two interleave.
    @Test func aValueFromAnotherThreadArrivesWhole() async throws {
        for round in 0..<200 {
            let values: [Int] = try await ThreadHandoff.await { deliver in
                Thread.detachNewThread { deliver(.success(Array(round..<(round + 64)))) }
            }
            #expect(values == Array(round..<(round + 64)))
        }
    }

    @Test func anErrorFromAnotherThreadIsThrown() async {
        await #expect(throws: Refused(code: 7)) {
            let _: Int = try await ThreadHandoff.await { deliver in
                Thread.detachNewThread { deliver(.failure(Refused(code: 7))) }
            }
        }
    }

    /// `InferenceQueue` refuses a full queue from inside `start`, before anything suspends.
    @Test func aResultDeliveredBeforeSuspendingArrives() async throws {
        let value: String = try await ThreadHandoff.await { deliver in deliver(.success("at once")) }
        #expect(value == "at once")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's words for an `errno` value, `strerror(code)` (by default the current `errno`): the
/// reason in every message about a file or a stream that the system refused.
package func systemErrorDescription(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

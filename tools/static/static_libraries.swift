// Compiled with -static-executable into an object that `make static` adds to the link of
// dist/swift-yolo, for the libraries it names and for nothing else: it has no code.
//
// The static binary is linked from the release build's objects, which were compiled against the
// toolchain's shared-library modules. Those name only Foundation's own libraries for the linker
// (its shared libraries bring their dependencies); compiled for a static executable, the same
// imports also name the archives that Foundation's archives need (CoreFoundation, _FoundationICU,
// _FoundationCShims, _FoundationCollections). swiftc collects these names from every object it
// links, so this one object completes the list for the toolchain in use.
import Dispatch
import Foundation
import FoundationEssentials
import Synchronization

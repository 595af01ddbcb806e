// Compiled with -static-executable into an object that `make static` adds to the link of
// dist/swift-yolo, for the libraries it names and for nothing else: it has no code.
//
// The static binary is linked from the release build's objects, which were compiled against the
// toolchain's shared-library modules. Those name only FoundationEssentials' own library for the
// linker (its shared library brings its dependencies); compiled for a static executable, the same
// import also names the archives that its archive needs (_FoundationCShims,
// _FoundationCollections). swiftc collects these names from every object it links, so this one
// object completes the list for the toolchain in use. No module of the package imports Foundation
// itself, whose archive would bring ICU's data (about 40 MB).
import Dispatch
import FoundationEssentials
import Synchronization

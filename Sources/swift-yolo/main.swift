// The `swift-yolo` command: everything is in SwiftYOLOCommands, so that tests and the fuzz
// targets use the same command types.
import SwiftYOLOCommands

SwiftYOLOCommand.main()

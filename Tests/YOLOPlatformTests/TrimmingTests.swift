import Testing
import YOLOPlatform

@Suite struct TrimmingTests {
    @Test func whitespaceGoesFromBothEndsOnly() {
        #expect(" \t person \r\n".trimmingWhitespace() == "person")
        #expect("traffic light".trimmingWhitespace() == "traffic light")
        #expect("\u{00A0}x y\u{2003}".trimmingWhitespace() == "x y")
        #expect("  \n\t ".trimmingWhitespace().isEmpty)
        #expect("".trimmingWhitespace().isEmpty)
        let field = Substring("; boundary = x ;").dropFirst().dropLast()
        #expect(field.trimmingWhitespace() == "boundary = x")
    }

    @Test func aPredicateChoosesWhatIsTrimmed() {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        #expect(" \ttext\n ".trimming(while: blank) == "text\n")
        #expect("--a-b--".trimming(while: { $0 == "-" }) == "a-b")
        #expect("----".trimming(while: { $0 == "-" }).isEmpty)
    }
}

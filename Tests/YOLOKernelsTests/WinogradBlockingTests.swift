import Testing
import YOLOKernels

/// How a Winograd layer's work is cut: in shares of the channels where its one block of tile rows
/// would split unevenly among the threads running it, else in blocks of tile rows; and the
/// products' row stride.
@Suite struct WinogradBlockingTests {
    static func winograd(inputs: Int, outputs: Int) -> WinogradConvolution {
        WinogradConvolution(inputChannels: inputs, outputChannels: outputs, weights: [Float](repeating: 0.5, count: outputs * inputs * 9))
    }

    @Test func oneBlockOfUnevenTileRowsRunsInShares() {
        let winograd = Self.winograd(inputs: 64, outputs: 64)
        // 20 × 20: five tile rows, on two or three threads.
        #expect(winograd.blocking(height: 20, width: 20, threads: 2, running: 2) == .channelShares(2))
        #expect(winograd.blocking(height: 20, width: 20, threads: 3, running: 3) == .channelShares(3))
        // 40 × 40: ten rows, even on two threads, not on three.
        #expect(winograd.blocking(height: 40, width: 40, threads: 2, running: 2) == .tileRows(blocks: 2))
        #expect(winograd.blocking(height: 40, width: 40, threads: 3, running: 3) == .channelShares(3))
        // Inside another parallelFor (a head's branch) the layer runs on one thread: rows.
        #expect(winograd.blocking(height: 20, width: 20, threads: 2, running: 1) == .tileRows(blocks: 2))
        // One thread: one block.
        #expect(winograd.blocking(height: 20, width: 20, threads: 1, running: 1) == .tileRows(blocks: 1))
        // Several blocks of about 256 tiles (80 × 80: 400 tiles): rows, a multiple of the threads.
        #expect(winograd.blocking(height: 80, width: 80, threads: 2, running: 2) == .tileRows(blocks: 2))
        #expect(winograd.blocking(height: 80, width: 80, threads: 3, running: 3) == .tileRows(blocks: 3))
    }

    /// At stride 2 the tiles are the output's: a 40 × 40 input has five tile rows.
    @Test func stride2TilesTheOutput() {
        let winograd = WinogradConvolution(inputChannels: 64, outputChannels: 64, stride: 2, weights: [Float](repeating: 0.5, count: 64 * 64 * 9))
        #expect(winograd.transformedWeights.count == 25 && winograd.transformedWeights[0].depth == 64)
        #expect(winograd.blocking(height: 40, width: 40, threads: 2, running: 2) == .channelShares(2))
        #expect(winograd.blocking(height: 80, width: 79, threads: 2, running: 2) == .tileRows(blocks: 2))
        #expect(winograd.blocking(height: 160, width: 160, threads: 1, running: 1) == .tileRows(blocks: 2))
    }

    @Test func sharesNeedAPanelAndAnInputChannelEach() {
        // 8 output channels are one panel; 1 input channel cannot be shared either.
        #expect(Self.winograd(inputs: 16, outputs: 8).blocking(height: 20, width: 20, threads: 2, running: 2) == .tileRows(blocks: 2))
        #expect(Self.winograd(inputs: 1, outputs: 16).blocking(height: 20, width: 20, threads: 2, running: 2) == .tileRows(blocks: 2))
        #expect(Self.winograd(inputs: 2, outputs: 9).blocking(height: 20, width: 20, threads: 2, running: 2) == .channelShares(2))
    }

    /// The products' rows lie at least seven floats past their last tile: the output transform's
    /// loads of eight tiles then never reach into the next channel's row.
    @Test func productRowsHaveRoomForTheLastLoad() {
        for lanes in [4, 8, 16] {
            for tiles in 1...300 {
                let buffers = WinogradConvolution.BlockBuffers(depth: 3, outputChannels: 5, tileRows: 1, tileColumns: tiles, lanes: lanes)
                #expect(buffers.productColumns % lanes == 0 && buffers.productColumns >= tiles)
                #expect(buffers.productRowStride >= buffers.productColumns && buffers.productRowStride >= tiles + 7)
            }
        }
    }
}

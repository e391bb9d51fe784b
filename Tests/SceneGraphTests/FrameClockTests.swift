import Testing

@testable import SceneGraph

/// The one frame clock: times of frames, frames of times, run lengths.
@Suite struct FrameClockTests {
  @Test func framesAndTimesAgreeExactly() {
    let clock = FrameClock(fps: 60)
    #expect(clock.time(ofFrame: 9) == 0.15)
    #expect(clock.frame(nearest: 0.15) == 9)
    #expect(clock.frame(nearest: 0.158) == 9 && clock.frame(nearest: 0.159) == 10)
    // 0.1 s at 30 fps is 3 whole steps, though 0.1 × 30 is 3.0000000000000004.
    #expect(FrameClock(fps: 30).lastFrame(after: 0.1) == 3)
    #expect(FrameClock(fps: 144).lastFrame(after: 1) == 144)
  }

  @Test func framesThatCannotBeNumberedAreNil() {
    let clock = FrameClock(fps: 1000)
    #expect(clock.frame(nearest: -1) == nil)
    #expect(clock.frame(nearest: .nan) == nil)
    #expect(clock.frame(nearest: .infinity) == nil)
    #expect(clock.frame(nearest: 1e308) == nil)
    #expect(clock.frame(nearest: 3600) == 3_600_000)
  }

  @Test func theRangeIsTheOneEveryCommandQuotes() {
    #expect(FrameClock.fpsRange == 1...1000)
    #expect(FrameClock.fpsRangeDescription == "between 1 and 1000")
  }
}

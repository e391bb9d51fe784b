#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One ffmpeg, started with `posix_spawn` (so `scenec` needs no more than
/// FoundationEssentials): raw RGBA frames go into its standard input; it writes the video
/// and its messages to temporary files of its own, removed when it is done.
final class FFmpegProcess {
  private var pid: pid_t = 0
  private var input: Int32 = -1
  private let videoPath: String
  private let messagesPath: String

  init(format: String, width: Int, height: Int, fps: Double) throws(RasterError) {
    guard let ffmpeg = VideoEncoder.ffmpeg() else {
      throw RasterError(description: VideoEncoder.missing(format))
    }
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    guard let video = Self.temporaryFile(in: folder, suffix: "." + format),
      let messages = Self.temporaryFile(in: folder, suffix: ".log")
    else {
      throw RasterError(description: "cannot make a temporary file in \(folder) for ffmpeg")
    }
    videoPath = video
    messagesPath = messages
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else {
      throw RasterError(description: "cannot make a pipe to ffmpeg")
    }
    let arguments =
      [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
        "-s", "\(width)x\(height)", "-r", fps.shortestText, "-i", "pipe:0",
      ] + (VideoEncoder.arguments[format] ?? []) + [video]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, messages, O_WRONLY | O_TRUNC, 0o600)
    let status = posix_spawn(&pid, ffmpeg, &actions, nil, &argv, environ)
    close(pipeEnds[0])
    guard status == 0 else {
      close(pipeEnds[1])
      unlink(video)
      unlink(messages)
      throw RasterError(description: "cannot start ffmpeg: \(String(cString: strerror(status)))")
    }
    input = pipeEnds[1]
  }

  /// A new empty file in `folder` whose name ends in `suffix`.
  static func temporaryFile(in folder: String, suffix: String) -> String? {
    var template = Array((folder + "/scenec-video-XXXXXX" + suffix).utf8CString)
    let made: String? = template.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return nil }
      let fd = mkstemps(base, Int32(suffix.utf8.count))
      guard fd >= 0 else { return nil }
      close(fd)
      return String(cString: base)
    }
    return made
  }

  /// Hands ffmpeg one frame's pixels.
  func write(_ bytes: [UInt8]) throws(RasterError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(input, base + written, bytes.count - written)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw RasterError(description: "ffmpeg stopped taking frames\(messages())")
      }
      written += count
    }
  }

  /// Ends the input, waits for ffmpeg, and returns the video it wrote.
  func finish() throws(RasterError) -> [UInt8] {
    close(input)
    input = -1
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    defer { removeFiles() }
    // Exited, with status 0.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw RasterError(description: "ffmpeg failed\(messages())")
    }
    guard let video = FileManager.default.contents(atPath: videoPath) else {
      throw RasterError(description: "ffmpeg wrote no video")
    }
    return [UInt8](video)
  }

  /// Stops ffmpeg and removes its files.
  func abandon() {
    if input >= 0 { close(input) }
    input = -1
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    removeFiles()
  }

  private func removeFiles() {
    unlink(videoPath)
    unlink(messagesPath)
  }

  /// ffmpeg's own message, if it wrote one.
  private func messages() -> String {
    guard let data = FileManager.default.contents(atPath: messagesPath) else { return "" }
    let text = String(decoding: data.prefix(400), as: UTF8.self)
      .split(whereSeparator: \.isNewline).joined(separator: "; ")
    return text.isEmpty ? "" : ": " + text
  }
}

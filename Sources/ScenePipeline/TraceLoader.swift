import SceneDiagnostics
import SceneFiles
import SceneGraph
import SceneSyntax

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

/// Reads the trace files a scene's gesture replays, relative to the scene file.
///
/// A scene is untrusted input (the preview serves it; CI runs whatever was pushed), so a
/// trace is read only from inside the scene's folder, after following every symbolic
/// link, or from a folder the caller allows. A trace's lines are echoed in diagnostics
/// only when the file looks like a trace (its real name, after every link, ends in `.csv`,
/// `.jsonl` or `.ndjson`, or the error is past its first line), so a scene cannot make an
/// error print another file's content: `x.csv -> /etc/shadow` is judged by `shadow`.
public enum TraceLoader {
  /// The largest trace read, in bytes.
  public static let maximumBytes = 64 << 20

  /// The traces of every `replay` step of `gesture`, keyed by the file name as the scene
  /// wrote it, with the source files whose errors are shown (for rendering them) and the
  /// path of every trace read (the run's inputs, which no output may replace).
  ///
  /// Every unreadable, misplaced or malformed trace is reported: a missing or misplaced
  /// file at the `replay` step, a malformed one at its own line and column.
  public static func load(
    for gesture: [GestureTrack], sceneFile: String, folders: [String] = []
  ) -> (
    traces: [String: TraceFile], files: [SourceFile], diagnostics: [Diagnostic], paths: [String]
  ) {
    // Paths stay as the scene's was given (relative stays relative), for messages.
    let folder = PathName.deletingLastComponent(sceneFile)
    let directory = folder.isEmpty ? "." : folder
    let allowed = ([directory] + folders).compactMap(FileIdentity.realPath)
    var traces: [String: TraceFile] = [:]
    var seen: Set<String> = []
    var files: [SourceFile] = []
    var diagnostics: [Diagnostic] = []
    var paths: [String] = []
    for track in gesture {
      for step in track.steps {
        guard case .replay(let name) = step.kind, seen.insert(name.value).inserted else { continue }
        let path =
          name.value.hasPrefix("/")
          ? name.value : (folder.isEmpty ? name.value : folder + "/" + name.value)
        guard let real = FileIdentity.realPath(path) else {
          diagnostics.append(
            .error(
              "cannot read the trace '\(name.value)' (looked for \(path))", at: name.source.span))
          continue
        }
        guard
          allowed.contains(where: {
            real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/")
          })
        else {
          diagnostics.append(
            .error(
              "the trace '\(name.value)' is outside the scene's folder; a scene may replay only traces beside it (allow a folder with --trace-folder)",
              at: name.source.span))
          continue
        }
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
          diagnostics.append(
            .error("the trace '\(name.value)' is not a regular file", at: name.source.span))
          continue
        }
        guard status.st_size <= maximumBytes else {
          diagnostics.append(
            .error(
              "the trace '\(name.value)' is larger than the limit of \(maximumBytes) bytes (64 MiB)",
              at: name.source.span))
          continue
        }
        guard let data = FileManager.default.contents(atPath: real),
          let text = String(data: data, encoding: .utf8)
        else {
          diagnostics.append(
            .error(
              "cannot read the trace '\(name.value)' as UTF-8 text (looked for \(path))",
              at: name.source.span))
          continue
        }
        let file = SourceFile(name: path, text: text)
        paths.append(path)
        do {
          traces[name.value] = try TraceFile.parse(text, name: path)
        } catch {
          let looksLikeTrace = ["csv", "jsonl", "ndjson"].contains(
            PathName.pathExtension(real).lowercased())
          if looksLikeTrace || error.span.start.line > 1 {
            files.append(file)
            diagnostics.append(error.diagnostic)
          } else {
            // Its message would quote the first line of a file that may be anything.
            diagnostics.append(
              .error(
                "the trace '\(name.value)' is not a trace: its first line is neither the header 't,x,y,phase[,id]' nor a sample (name a trace .csv or .jsonl to see where)",
                at: name.source.span))
          }
        }
      }
    }
    return (traces, files, diagnostics, paths)
  }
}

import Foundation
import SceneEngine
import SceneGeometry

/// A message from the preview page, checked: the page is a browser anyone on the network
/// may point at the server (with `--host`), so every field is validated before use.
public enum PreviewMessage: Equatable, Sendable {
  /// A pointer went down, moved, lifted or was cancelled, at a point in scene coordinates.
  case pointer(Phase, id: Int, x: Double, y: Double)
  /// Pause, resume, step, restart, play the scene's own gesture, record.
  case control(Control)
  /// Play at this speed, 0.1× to 2×.
  case speed(Double)
  /// Save the last recording: its trace, and optionally a copy of the scene replaying it.
  ///
  /// `confirm` is the token the server sent when it asked whether to replace existing
  /// files: only with it does a save replace anything, so the confirmation is the
  /// server's, not only the page's.
  case save(trace: String, scene: String?, confirm: String?)
  /// Set an input of the scene (by name) to a value; a trigger is fired, whatever the value.
  case input(name: String, value: Double)
  /// Set the scene's tunable number `index` (of the list the page was sent) to `value`.
  case tune(index: Int, value: Double)
  /// Write the tuned numbers into the scene file.
  case saveTuning
  /// Go back (or forward) to a frame of the current take, and pause there.
  case seek(frame: Int)
  /// Send again frames `from...to` of the current take, which a page that read slowly
  /// missed (the server sends only the newest frame to such a page).
  case frames(from: Int, to: Int)

  /// The engine's own: a message's phase goes to the session as it is.
  public typealias Phase = LiveSession.PointerPhase

  public enum Control: String, Equatable, Sendable, CaseIterable {
    case pause, resume, toggle, step, restart, script, record, replay
    case stopRecording = "stop-recording"
    case showGuides = "show-guides"
    case hideGuides = "hide-guides"
  }

  /// The largest message read, in bytes; the pointer messages are about 60.
  public static let maximumBytes = 4096
  /// Pointer ids the page may use: a few fingers, never thousands.
  public static let pointerIDs = 0..<32
  /// How far outside the scene a pointer may be, in scene sizes.
  public static let coordinateLimit = 1e6
  public static let speeds = 0.1...2.0

  /// Why a message was refused: said to the page, word for word.
  public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The fields any message may have; which are needed depends on `type`.
  private struct Fields: Decodable {
    var type: String?
    var phase: String?
    var id: Double?
    var x: Double?
    var y: Double?
    var action: String?
    var value: Double?
    var trace: String?
    var scene: String?
    var confirm: String?
    var name: String?
    var index: Double?
    var frame: Double?
    var from: Double?
    var to: Double?
  }

  /// The message in `text`, or why it was refused.
  public static func parse(_ text: String) throws(Refusal) -> PreviewMessage {
    guard text.utf8.count <= maximumBytes else {
      throw Refusal(description: "a message is larger than \(maximumBytes) bytes")
    }
    let fields: Fields
    do {
      fields = try JSONDecoder().decode(Fields.self, from: Data(text.utf8))
    } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
      let key = context.codingPath.last?.stringValue ?? ""
      throw Refusal(description: "'\(key)' has the wrong type")
    } catch {
      throw Refusal(description: "a message must be a JSON object")
    }
    guard let type = fields.type else { throw Refusal(description: "a message needs a 'type'") }
    switch type {
    case "pointer":
      guard let phaseName = fields.phase, let phase = Phase(rawValue: phaseName) else {
        throw Refusal(description: "a pointer message needs a 'phase' of down, move, up or cancel")
      }
      let id = try number(fields.id, "id", in: 0...Double(pointerIDs.upperBound - 1))
      guard id == id.rounded() else { throw Refusal(description: "'id' must be a whole number") }
      let x = try number(fields.x, "x", in: -coordinateLimit...coordinateLimit)
      let y = try number(fields.y, "y", in: -coordinateLimit...coordinateLimit)
      return .pointer(phase, id: Int(id), x: x, y: y)
    case "control":
      guard let name = fields.action, let control = Control(rawValue: name) else {
        let names = Control.allCases.map(\.rawValue).joined(separator: ", ")
        throw Refusal(description: "a control message needs an 'action': one of \(names)")
      }
      return .control(control)
    case "speed":
      return .speed(try number(fields.value, "value", in: speeds))
    case "save":
      guard let trace = fields.trace else {
        throw Refusal(description: "a save message needs a 'trace' file name")
      }
      let scene = fields.scene.flatMap { $0.isEmpty ? nil : $0 }
      let confirm = fields.confirm.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
      return .save(trace: trace, scene: scene, confirm: confirm)
    case "input":
      guard let name = fields.name, !name.isEmpty, name.utf8.count <= 256 else {
        throw Refusal(description: "an input message needs a 'name' (at most 256 bytes)")
      }
      return .input(name: name, value: try number(fields.value, "value", in: -1e15...1e15))
    case "tune":
      let index = try number(fields.index, "index", in: 0...9999)
      guard index == index.rounded() else {
        throw Refusal(description: "'index' must be a whole number")
      }
      return .tune(index: Int(index), value: try number(fields.value, "value", in: -1e15...1e15))
    case "save-tuning":
      return .saveTuning
    case "seek":
      let frame = try number(fields.frame, "frame", in: 0...1e9)
      guard frame == frame.rounded() else {
        throw Refusal(description: "'frame' must be a whole number")
      }
      return .seek(frame: Int(frame))
    case "frames":
      let from = try number(fields.from, "from", in: 0...1e9)
      let to = try number(fields.to, "to", in: 0...1e9)
      guard from == from.rounded(), to == to.rounded() else {
        throw Refusal(description: "'from' and 'to' must be whole numbers")
      }
      guard from <= to else { throw Refusal(description: "'from' must not be after 'to'") }
      return .frames(from: Int(from), to: Int(to))
    default:
      throw Refusal(
        description:
          "unknown message type '\(type.prefix(40))' (pointer, control, speed, save, input, tune, save-tuning, seek or frames)"
      )
    }
  }

  private static func number(_ value: Double?, _ name: String, in range: ClosedRange<Double>)
    throws(Refusal) -> Double
  {
    guard let value else { throw Refusal(description: "a message needs '\(name)'") }
    guard value.isFinite, range.contains(value) else {
      throw Refusal(
        description:
          "'\(name)' must be between \(range.lowerBound.shortestDescription) and \(range.upperBound.shortestDescription)"
      )
    }
    return value
  }
}

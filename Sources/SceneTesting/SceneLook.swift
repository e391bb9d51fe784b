import SceneGeometry
import SceneGraph
import SceneOutputs
import SceneVocabulary

/// What a scene looks like at rest, as one JSON object: the golden `scenec test` keeps in
/// `__snapshots__/NAME.look.json` beside the frames.
///
/// Frames carry only what moves, so a style or a size that never changes (a card's fill,
/// a badge's radius, a path's stroke) is in no frame: this file holds them, so a change to
/// any fails the test, with the first difference named by its path
/// (`handles.card.fill`). Keys sorted, numbers in their shortest form, colours
/// `#rrggbbaa`, one line; the same scene always gives the same bytes.
public enum SceneLook {
  public static func json(of graph: SceneGraph) -> String {
    var scene: [(String, String)] = [
      ("height", number(graph.height)), ("name", JSONText.quoted(graph.name)),
      ("width", number(graph.width)),
    ]
    if let background = graph.background {
      scene.append(("background", color(background)))
    }
    let handles = graph.handles.map { ($0.name, object(look(of: $0))) }
    let paths = graph.drawnPaths.map { path in
      (path.name, object(style(path.style)))
    }
    let root: [(String, String)] = [
      ("handles", object(handles)), ("paths", object(paths)), ("scene", object(scene)),
    ]
    return object(root) + "\n"
  }

  /// A handle's or child's shape, sizes, style and, for text, its words and font.
  static func look(of handle: SceneGraph.Handle) -> [(String, String)] {
    var fields: [(String, String)] = [("shape", JSONText.quoted(handle.shape.rawValue))]
    fields += style(handle.style)
    switch handle.shape {
    case .circle:
      fields.append(("r", number(handle.radius)))
    case .rect:
      fields += [
        ("width", number(handle.width)), ("height", number(handle.height)),
        ("cornerRadius", number(handle.cornerRadius)),
      ]
    case .none, .text:
      break
    }
    if handle.draggable {
      fields.append(("hitRadius", handle.hitsShapes ? "\"shapes\"" : number(handle.hitRadius)))
    }
    if let text = handle.text {
      fields += [
        ("text", JSONText.quoted(template(text))), ("fontSize", number(text.fontSize)),
        ("fontWeight", JSONText.quoted(text.fontWeight.rawValue)),
        ("align", JSONText.quoted(text.align.rawValue)),
      ]
    }
    if handle.rotation != 0 { fields.append(("rotation", number(handle.rotation))) }
    if handle.scale != 1 { fields.append(("scale", number(handle.scale))) }
    if handle.scaleX != 1 { fields.append(("scaleX", number(handle.scaleX))) }
    if handle.scaleY != 1 { fields.append(("scaleY", number(handle.scaleY))) }
    if !handle.children.isEmpty {
      fields.append(
        (
          "children",
          object(
            handle.children.map { child in
              var look = look(of: child)
              look.append(("x", number(child.offset.x)))
              look.append(("y", number(child.offset.y)))
              return (child.name, object(look))
            })
        ))
    }
    return fields
  }

  static func style(_ style: SceneGraph.Style) -> [(String, String)] {
    [
      ("fill", style.fill.map(color) ?? "null"), ("stroke", style.stroke.map(color) ?? "null"),
      ("strokeWidth", number(style.strokeWidth)), ("opacity", number(style.opacity)),
    ]
  }

  /// A text's words, with `{…}` where a number is written each frame.
  static func template(_ text: SceneGraph.TextLook) -> String {
    var result = ""
    for piece in text.pieces {
      switch piece {
      case .literal(let words): result += words
      case .value(let k, let decimals):
        result += "{\(k)" + (decimals.map { ":.\($0)f" } ?? "") + "}"
      }
    }
    return result
  }

  /// `{"a":…,"b":…}` with the keys sorted (as every JSON object scenec writes).
  static func object(_ fields: [(String, String)]) -> String {
    "{"
      + fields.sorted { $0.0 < $1.0 }.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(
        separator: ",") + "}"
  }

  static func number(_ value: Double) -> String { value.shortestDescription }

  static func color(_ color: Color) -> String { JSONText.quoted(color.description) }
}

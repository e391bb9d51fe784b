import SceneVocabulary

/// A JSON Schema (draft 2020-12) of scene YAML, for editors: `scenec schema`.
///
/// Every mapping's keys come from the tables ``SceneDecoder`` checks keys against, so a key
/// the decoder takes is a key the schema knows, and no other: the schema cannot drift from
/// the decoder. Each key's type is given here; ``untypedKeys`` lists any key of those
/// tables without one (a test keeps it empty). What only resolving can check (names that
/// exist, expressions that compile, ranges) is left to `scenec check`.
public enum SceneSchema {
  /// The schema, pretty-printed, ending in a line break.
  public static var json: String {
    var builder = Builder()
    return builder.schema().text(indent: 0) + "\n"
  }

  /// The keys of the decoder's tables that the schema has no type for.
  public static var untypedKeys: [String] {
    var builder = Builder()
    _ = builder.schema()
    return builder.untyped
  }
}

/// A JSON value being built.
indirect enum SchemaValue {
  case object([(String, SchemaValue)])
  case array([SchemaValue])
  case string(String)
  case number(Double)
  case bool(Bool)

  func text(indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent)
    let inner = String(repeating: "  ", count: indent + 1)
    switch self {
    case .string(let s): return quoted(s)
    case .bool(let b): return b ? "true" : "false"
    case .number(let n):
      return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
    case .array(let items):
      // Short lists of scalars stay on one line.
      if items.allSatisfy({ if case .object = $0 { false } else { true } }) {
        return "[" + items.map { $0.text(indent: indent) }.joined(separator: ", ") + "]"
      }
      return "[\n" + items.map { inner + $0.text(indent: indent + 1) }.joined(separator: ",\n")
        + "\n" + pad + "]"
    case .object(let fields):
      if fields.isEmpty { return "{}" }
      return "{\n"
        + fields.map { inner + quoted($0.0) + ": " + $0.1.text(indent: indent + 1) }.joined(
          separator: ",\n") + "\n" + pad + "}"
    }
  }

  private func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

private struct Builder {
  var untyped: [String] = []

  // MARK: - Shapes

  func ref(_ name: String) -> SchemaValue { .object([("$ref", .string("#/$defs/" + name))]) }
  func type(_ name: String) -> SchemaValue { .object([("type", .string(name))]) }
  func anyOf(_ options: [SchemaValue]) -> SchemaValue { .object([("anyOf", .array(options))]) }
  func enumeration(_ words: [String]) -> SchemaValue {
    .object([("type", .string("string")), ("enum", .array(words.map(SchemaValue.string)))])
  }
  func pattern(_ regex: String) -> SchemaValue {
    .object([("type", .string("string")), ("pattern", .string(regex))])
  }
  func list(of items: SchemaValue) -> SchemaValue {
    .object([("type", .string("array")), ("items", items)])
  }
  func tuple(_ count: Int, of item: SchemaValue) -> SchemaValue {
    .object([
      ("type", .string("array")), ("items", item), ("minItems", .number(Double(count))),
      ("maxItems", .number(Double(count))),
    ])
  }
  /// A mapping from names to `value`.
  func named(_ value: SchemaValue) -> SchemaValue {
    .object([
      ("type", .string("object")), ("propertyNames", ref("name")),
      ("additionalProperties", value),
    ])
  }
  /// A mapping with exactly one key, among `cases`.
  func oneKey(_ cases: [(String, SchemaValue)]) -> SchemaValue {
    .object([
      ("type", .string("object")), ("minProperties", .number(1)), ("maxProperties", .number(1)),
      ("properties", .object(cases)), ("additionalProperties", .bool(false)),
    ])
  }

  /// An object whose keys are `keys` (a decoder table), each typed by `types`; a key
  /// without a type is recorded in ``untyped``.
  mutating func object(
    _ what: String, keys: [String], _ types: [String: SchemaValue], required: [String] = []
  ) -> SchemaValue {
    var properties: [(String, SchemaValue)] = []
    for key in keys {
      if let type = types[key] {
        properties.append((key, type))
      } else {
        untyped.append("\(what).\(key)")
        properties.append((key, .object([])))
      }
    }
    var fields: [(String, SchemaValue)] = [
      ("type", .string("object")), ("properties", .object(properties)),
      ("additionalProperties", .bool(false)),
    ]
    if !required.isEmpty { fields.append(("required", .array(required.map(SchemaValue.string)))) }
    return .object(fields)
  }

  // MARK: - The schema

  mutating func schema() -> SchemaValue {
    var defs: [(String, SchemaValue)] = [
      ("name", pattern("^[A-Za-z_][A-Za-z0-9_]*$")),
      ("number", type("number")),
      ("expression", anyOf([type("number"), pattern("\\S")])),
      ("point", anyOf([ref("expression"), tuple(2, of: ref("expression"))])),
      (
        "time",
        anyOf([
          .object([("type", .string("number")), ("minimum", .number(0))]),
          pattern("^[+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms)?$"),
        ])
      ),
      (
        "color",
        pattern(
          "^(#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|"
            + Color.named.keys.sorted().joined(separator: "|") + ")$")
      ),
      (
        "easing",
        anyOf([
          enumeration(Easing.names.keys.sorted()), pattern("^cubic-bezier\\(.*\\)$"),
        ])
      ),
    ]
    let animatedObject = object(
      "animated value", keys: SceneDecoder.animatedValueKeys,
      [
        "to": ref("expression"), "spring": ref("name"), "held": ref("expression"),
        "duration": ref("time"), "ease": ref("easing"),
      ], required: ["to"])
    defs.append(("animated", anyOf([ref("expression"), animatedObject])))
    defs.append(("paint", anyOf([ref("color"), pattern("^mix\\("), animatedObject])))
    defs.append(("handle", handle(child: false)))
    defs.append(("child", handle(child: true)))
    defs.append(("step", step()))
    defs.append(("steps", list(of: ref("step"))))
    defs.append(("momentum", momentum()))
    defs.append(("resistance", resistance()))
    defs.append(("machine", machine()))

    let top: [String: SchemaValue] = [
      "scene": object(
        "scene", keys: SceneDecoder.headerKeys,
        [
          "name": type("string"),
          "size": anyOf([pattern("^[0-9.]+x[0-9.]+$"), tuple(2, of: ref("number"))]),
          "fps": ref("number"),
          "duration": anyOf([ref("time"), enumeration(["until-rest"])]),
          "maxDuration": ref("time"), "background": ref("color"),
        ]),
      "let": named(ref("point")),
      "springs": named(
        object(
          "spring", keys: SceneDecoder.springKeys,
          [
            "dampingRatio": ref("number"), "duration": ref("time"), "bounce": ref("number"),
            "stiffness": ref("number"), "damping": ref("number"), "mass": ref("number"),
            "restThreshold": ref("number"),
          ])),
      "handles": named(ref("handle")),
      "paths": named(path()),
      "constraints": list(of: constraint()),
      "inputs": named(
        anyOf([
          type("boolean"), type("number"), enumeration(["trigger"]),
          object(
            "input", keys: SceneDecoder.inputRangeKeys,
            ["value": ref("number"), "min": ref("number"), "max": ref("number")],
            required: ["value"]),
        ])),
      "states": named(ref("machine")),
      "gesture": anyOf([
        ref("steps"),
        .object([
          ("type", .string("object")), ("propertyNames", pattern("^[0-9]+$")),
          ("additionalProperties", ref("steps")),
        ]),
      ]),
      "expect": list(
        of: anyOf([
          type("string"),
          .object([
            ("type", .string("object")), ("minProperties", .number(1)),
            ("maxProperties", .number(1)), ("additionalProperties", type("string")),
          ]),
        ])),
    ]
    var root = object("top level", keys: SceneDecoder.topLevelKeys, top)
    if case .object(var fields) = root {
      fields.insert(("$schema", .string("https://json-schema.org/draft/2020-12/schema")), at: 0)
      fields.insert(("title", .string("A scenec scene (YAML)")), at: 1)
      // `x-…` keys hold YAML anchors, and are not part of the scene.
      fields.append(("patternProperties", .object([("^x-", .object([]))])))
      fields.append(("$defs", .object(defs)))
      root = .object(fields)
    }
    return root
  }

  // MARK: - Parts

  mutating func handle(child: Bool) -> SchemaValue {
    var types: [String: SchemaValue] = [
      "position": ref("point"),
      "shape": enumeration(
        HandleShape.allCases.map { $0.rawValue }.filter { child || $0 != "text" }),
      "fill": ref("paint"), "stroke": ref("paint"),
    ]
    for key in ["r", "width", "height", "cornerRadius", "strokeWidth", "opacity", "rotation"]
      + ["scale", "scaleX", "scaleY"]
    {
      types[key] = ref("animated")
    }
    if child {
      types["text"] = type("string")
      types["fontSize"] = ref("number")
      types["fontWeight"] = enumeration(FontWeight.allCases.map { $0.rawValue })
      types["align"] = enumeration(TextAlign.allCases.map { $0.rawValue })
      return object("child", keys: SceneDecoder.childKeys, types)
    }
    types["draggable"] = type("boolean")
    types["hitRadius"] = ref("number")
    types["rest"] = ref("point")
    types["spring"] = ref("name")
    types["children"] = named(ref("child"))
    return object("handle", keys: SceneDecoder.handleKeys, types, required: ["position"])
  }

  mutating func path() -> SchemaValue {
    let segment = anyOf([
      enumeration(["close"]),
      oneKey([
        ("move", ref("point")), ("line", ref("point")), ("quad", tuple(2, of: ref("point"))),
        ("cubic", tuple(3, of: ref("point"))),
      ]),
    ])
    let trim = object(
      "trim", keys: SceneDecoder.trimKeys, ["start": ref("animated"), "end": ref("animated")])
    return object(
      "path", keys: SceneDecoder.pathKeys,
      [
        "d": type("string"), "segments": list(of: segment), "trim": trim,
        "fill": ref("paint"), "stroke": ref("paint"), "strokeWidth": ref("animated"),
        "opacity": ref("animated"),
      ])
  }

  mutating func constraint() -> SchemaValue {
    let style: [String: SchemaValue] = [
      "fill": ref("color"), "stroke": ref("color"), "strokeWidth": ref("number"),
      "opacity": ref("number"),
    ]
    let follow = object(
      "follow", keys: SceneDecoder.followKeys,
      [
        "name": ref("name"), "handle": ref("name"), "path": ref("name"),
        "orient": type("boolean"), "ends": enumeration(PathEnds.allCases.map { $0.rawValue }),
        "spring": ref("name"), "rest": ref("number"), "hysteresis": ref("number"),
        "momentum": ref("momentum"), "snap": named(ref("number")),
      ], required: ["handle", "path"])
    let returnObject = object(
      "return", keys: SceneDecoder.returnKeys,
      [
        "spring": ref("name"), "speed": ref("number"), "duration": ref("time"),
        "ease": ref("easing"),
      ])
    let elastic = object(
      "elastic", keys: SceneDecoder.elasticKeys,
      [
        "name": ref("name"), "handle": ref("name"), "resistance": ref("resistance"),
        "return": anyOf([ref("name"), returnObject]),
      ], required: ["handle"])
    var gooeyTypes: [String: SchemaValue] = [
      "name": ref("name"), "anchor": ref("name"), "ball": ref("name"),
      "viscosity": ref("number"), "maxDistance": ref("number"), "minRadius": ref("number"),
      "spring": ref("name"), "style": enumeration(GooeyStyle.allCases.map { $0.rawValue }),
    ]
    // Not `merging(_:uniquingKeysWith:)`, which rethrows: Embedded Swift cannot compile it.
    for (key, type) in style where gooeyTypes[key] == nil { gooeyTypes[key] = type }
    let gooey = object(
      "gooey", keys: SceneDecoder.gooeyKeys, gooeyTypes, required: ["anchor", "ball"])
    let animate = object(
      "animate", keys: SceneDecoder.animateKeys,
      [
        "name": ref("name"), "handle": ref("name"), "path": ref("name"),
        "duration": ref("time"), "repeat": enumeration(RepeatMode.allCases.map { $0.rawValue }),
        "ease": ref("easing"), "orient": type("boolean"), "delay": ref("time"),
      ], required: ["handle", "path"])
    let bounds = object(
      "bounds", keys: SceneDecoder.boundsKeys,
      [
        "minX": ref("expression"), "maxX": ref("expression"), "minY": ref("expression"),
        "maxY": ref("expression"),
      ])
    let zoom = object(
      "zoom", keys: SceneDecoder.zoomKeys, ["min": ref("number"), "max": ref("number")])
    let drag = object(
      "drag", keys: SceneDecoder.dragKeys,
      [
        "name": ref("name"), "handle": ref("name"),
        "axis": enumeration(DragAxis.allCases.map { $0.rawValue }), "lock": type("boolean"),
        "bounds": bounds, "overdrag": ref("resistance"), "momentum": ref("momentum"),
        "snap": named(ref("point")), "grid": ref("point"), "paging": type("boolean"),
        "spring": ref("name"), "bounce": ref("name"),
        "transform": enumeration(DragTransform.allCases.map { $0.rawValue }),
        "rotate": type("boolean"), "zoom": zoom,
      ], required: ["handle"])
    let kinds: [ConstraintKeyword: SchemaValue] = [
      .follow: follow, .elastic: elastic, .gooey: gooey, .animate: animate, .drag: drag,
    ]
    return oneKey(ConstraintKeyword.allCases.map { ($0.rawValue, kinds[$0] ?? .object([])) })
  }

  mutating func momentum() -> SchemaValue {
    anyOf([
      enumeration(["none"] + DecelerationPreset.allCases.map { $0.rawValue }),
      object(
        "momentum", keys: SceneDecoder.momentumKeys,
        ["rate": ref("number"), "power": ref("number"), "timeConstant": ref("time")]),
    ])
  }

  mutating func resistance() -> SchemaValue {
    anyOf([
      enumeration(["none", "rubberband"]),
      object(
        "resistance", keys: SceneDecoder.resistanceKeys,
        ["factor": ref("number"), "rubberband": ref("number"), "dimension": ref("number")]),
    ])
  }

  mutating func step() -> SchemaValue {
    let point = anyOf([
      ref("point"),
      object("press", keys: SceneDecoder.pointKeys, ["at": ref("point")], required: ["at"]),
    ])
    let motion = object(
      "drag", keys: SceneDecoder.motionKeys,
      ["to": ref("point"), "by": ref("point"), "over": ref("time"), "ease": ref("easing")])
    let fling = object(
      "fling", keys: SceneDecoder.flingKeys,
      ["to": ref("point"), "by": ref("point"), "over": ref("time"), "velocity": ref("point")])
    let release = anyOf([
      type("null"),
      object("release", keys: SceneDecoder.releaseKeys, ["velocity": ref("point")]),
    ])
    let pinch = object(
      "pinch", keys: SceneDecoder.pinchKeys,
      [
        "scale": ref("expression"), "rotation": ref("expression"), "center": ref("point"),
        "distance": ref("expression"), "over": ref("time"), "ease": ref("easing"),
      ], required: ["scale", "center"])
    let rotate = object(
      "rotate", keys: SceneDecoder.rotateKeys,
      [
        "by": ref("expression"), "center": ref("point"), "distance": ref("expression"),
        "over": ref("time"), "ease": ref("easing"),
      ], required: ["by", "center"])
    let kinds: [GestureStepKeyword: SchemaValue] = [
      .press: point, .tap: point, .drag: motion, .move: motion, .wait: ref("time"),
      .hold: ref("time"), .release: release, .fling: fling, .replay: type("string"),
      .pinch: pinch, .rotate: rotate,
      .set: named(anyOf([ref("expression"), type("boolean")])), .fire: ref("name"),
    ]
    for keyword in GestureStepKeyword.allCases where kinds[keyword] == nil {
      untyped.append("gesture.\(keyword.rawValue)")
    }
    return anyOf([
      enumeration(["release"]),
      oneKey(GestureStepKeyword.allCases.map { ($0.rawValue, kinds[$0] ?? .object([])) }),
    ])
  }

  mutating func machine() -> SchemaValue {
    let state = anyOf([
      type("null"),
      object(
        "state", keys: SceneDecoder.stateKeys,
        [
          "set": named(named(ref("point"))), "spring": ref("name"), "duration": ref("time"),
          "ease": ref("easing"), "disable": anyOf([ref("name"), list(of: ref("name"))]),
        ]),
    ])
    let transition = object(
      "transition", keys: SceneDecoder.transitionKeys,
      [
        "from": ref("name"), "to": ref("name"), "on": type("string"),
        "when": ref("expression"), "after": ref("time"),
      ], required: ["from", "to"])
    return object(
      "machine", keys: SceneDecoder.machineKeys,
      ["initial": ref("name"), "states": named(state), "transitions": list(of: transition)],
      required: ["initial", "states"])
  }
}

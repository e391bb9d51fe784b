import SceneDiagnostics
import SceneSyntax

extension SceneFrontEnd {
  /// YAML (`.yaml` and `.yml` files), read by libyaml within `limits`: registered by the
  /// shells that link C (`ScenePipeline`), never by the portable core.
  public static func yaml(limits: YAMLReader.Limits = YAMLReader.Limits()) -> SceneFrontEnd {
    SceneFrontEnd(name: "yaml", fileExtensions: ["yaml", "yml"], keysAreUnique: true) { file, _ in
      do throws(YAMLError) {
        let document = try YAMLReader.read(file, limits: limits)
        return Parsed(document: document, diagnostics: [])
      } catch {
        return Parsed(document: nil, diagnostics: [error.diagnostic])
      }
    }
  }
}

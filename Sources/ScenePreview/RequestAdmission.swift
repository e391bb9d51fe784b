/// Which requests the preview answers, decided from a request's head alone, before any
/// of it reaches the HTTP parser.
///
/// A page on any site can make the browser send requests to `127.0.0.1`, and a site whose
/// name resolves to `127.0.0.1` (DNS rebinding) even counts as same-origin with itself.
/// What such a request cannot forge is the `Host` header, which names the site: so only
/// a loopback name (`127.0.0.1`, `localhost`, `[::1]`) or the exact host the server was
/// told to listen on is answered, with the port it listens on. A server shared on every
/// address (`--host 0.0.0.0`) also answers any IP literal, which no DNS name can rebind.
/// Everything else is refused with 403 before it is parsed further.
public struct RequestAdmission: Sendable, Equatable {
  /// The host the server listens on, as given (`127.0.0.1`, `0.0.0.0`, `mybox.local`).
  public var listeningHost: String

  public init(listeningHost: String) {
    self.listeningHost = listeningHost
  }

  /// The most bytes a request head may have.
  public static let maximumHeadBytes = 16 << 10

  /// What to do with a request.
  public enum Decision: Equatable, Sendable {
    /// Pass it on; `webSocket` when it asks to upgrade `/ws`, after which the connection
    /// carries WebSocket frames.
    case admit(webSocket: Bool)
    /// Answer with this status and a plain-text reason, and close the connection.
    case refuse(Refusal)
  }

  /// A refusal: the status line's code and phrase, and the reason shown as the body.
  public struct Refusal: Equatable, Sendable, Error {
    public var status: Int
    public var phrase: String
    public var reason: String

    static func badRequest(_ reason: String) -> Refusal {
      Refusal(status: 400, phrase: "Bad Request", reason: reason)
    }
  }

  /// The decision for the complete head `bytes` (request line and header lines, each
  /// ending in CRLF, then the empty line), received on local port `port`.
  public func decide(head bytes: some Collection<UInt8>, port: Int) -> Decision {
    let head: RequestHead
    do {
      head = try RequestHead(bytes)
    } catch {
      return .refuse(error)
    }
    let hosts = head.values(of: "host")
    guard hosts.count == 1, let host = hosts.first else {
      return .refuse(
        .badRequest(
          hosts.isEmpty
            ? "a request needs a Host header" : "a request may have only one Host header"))
    }
    guard admits(host: host, port: port) else {
      return .refuse(
        Refusal(
          status: 403, phrase: "Forbidden",
          reason:
            "scenec preview answers only to 127.0.0.1, localhost and [::1]\(isLoopback(listeningHost) ? "" : " and \(listeningHost)") on port \(port); this request was sent to '\(String(host.prefix(100)))'"
        ))
    }
    let lengths = head.values(of: "content-length")
    guard head.values(of: "transfer-encoding").isEmpty, lengths.allSatisfy({ $0 == "0" }) else {
      return .refuse(.badRequest("the preview takes no request bodies"))
    }
    let path = head.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    let upgrade = head.values(of: "upgrade").contains { $0.lowercased() == "websocket" }
    return .admit(webSocket: upgrade && path == "/ws")
  }

  /// Whether a `Host` header value (`name` or `name:port`, an IPv6 literal in brackets)
  /// names this server.
  public func admits(host value: String, port: Int) -> Bool {
    let (name, givenPort) = Self.split(host: value.lowercased())
    // A browser leaves out only the default port.
    guard givenPort == port || (givenPort == nil && port == 80) else { return false }
    if isLoopback(name) { return true }
    let listening = listeningHost.lowercased()
    let bare = listening.hasPrefix("[") ? String(listening.dropFirst().dropLast()) : listening
    if name == bare { return true }
    // Bound to every address: any address literal, never a name.
    return (bare == "0.0.0.0" || bare == "::") && Self.isAddressLiteral(name)
  }

  func isLoopback(_ name: String) -> Bool {
    ["127.0.0.1", "localhost", "::1"].contains(name.lowercased())
  }

  /// The name (an IPv6 literal without its brackets) and the port, if one is written.
  static func split(host value: String) -> (name: String, port: Int?) {
    if value.hasPrefix("[") {
      guard let close = value.firstIndex(of: "]") else { return ("", nil) }
      let name = String(value[value.index(after: value.startIndex)..<close])
      let rest = value[value.index(after: close)...]
      if rest.isEmpty { return (name, nil) }
      guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return ("", nil) }
      return (name, port)
    }
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return (value, nil)
    case 2:
      guard let port = Int(parts[1]), parts[1].allSatisfy(\.isASCII) else { return ("", nil) }
      return (String(parts[0]), port)
    default: return ("", nil)
    }
  }

  /// An IPv4 dotted quad or an IPv6 literal: no DNS name, so nothing to rebind.
  static func isAddressLiteral(_ name: String) -> Bool {
    if name.contains(":") {
      return !name.isEmpty && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
          && Int(part).map { (0...255).contains($0) } == true
      }
  }
}

/// A request head, checked line by line as RFC 9112 writes it: a request line `METHOD SP
/// target SP HTTP/1.x` and header lines `name: value`, each ending in CRLF.
struct RequestHead {
  var method: String
  var target: String
  /// Header names lowercased, in order, with their values trimmed.
  var fields: [(name: String, value: String)]

  init(_ bytes: some Collection<UInt8>) throws(RequestAdmission.Refusal) {
    var lines: [ArraySlice<UInt8>] = []
    let all = Array(bytes)
    var start = 0
    var index = 0
    while index + 1 < all.count {
      if all[index] == 13 && all[index + 1] == 10 {
        lines.append(all[start..<index])
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    // The head ends with an empty line.
    guard lines.count >= 2, lines.last?.isEmpty == true, start == all.count else {
      throw .badRequest("a request head must end with an empty line")
    }
    let requestLine = lines[0].split(separator: 32, omittingEmptySubsequences: false)
    guard requestLine.count == 3, !requestLine[0].isEmpty,
      requestLine[0].allSatisfy(Self.isTokenByte),
      !requestLine[1].isEmpty, requestLine[1].allSatisfy({ $0 > 32 && $0 < 127 }),
      ["HTTP/1.1", "HTTP/1.0"].contains(String(decoding: requestLine[2], as: UTF8.self))
    else { throw .badRequest("not an HTTP/1.1 request line") }
    method = String(decoding: requestLine[0], as: UTF8.self)
    target = String(decoding: requestLine[1], as: UTF8.self)
    fields = []
    for line in lines[1..<(lines.count - 1)] {
      guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
        line[..<colon].allSatisfy(Self.isTokenByte)
      else { throw .badRequest("a header line must be 'name: value'") }
      let value = line[line.index(after: colon)...]
      guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
        throw .badRequest("a header value has a control character")
      }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      let text = String(decoding: value, as: UTF8.self)
      fields.append((name, text.trimmingSpaces))
    }
  }

  func values(of name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  /// RFC 9110's `tchar`.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}

extension String {
  /// Without leading and trailing spaces and tabs (HTTP's optional white space).
  fileprivate var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}

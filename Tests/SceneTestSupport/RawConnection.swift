import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client on loopback that sends exactly the bytes a test writes, hostile ones
/// included (no HTTP or WebSocket library would send them), and reads what comes back.
///
/// Every read waits at most ``readTimeout`` seconds: a bound on how long a broken server
/// can stall a test, never an assertion on how fast a good one is.
public final class RawConnection {
  public static let readTimeout = 30
  let fd: Int32

  public init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
    var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(fd)
      throw Failure("connect: \(reason)")
    }
  }

  deinit { Glibc.close(fd) }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  public func send(_ text: String) { send(Array(text.utf8)) }

  public func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 { return }
      offset += written
    }
  }

  /// What arrives until the server closes the connection (`closed`), or a read times out.
  public func readUntilClosed(limit: Int = 1 << 20) -> (bytes: [UInt8], closed: Bool) {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < limit {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count == 0 { return (bytes, true) }
      if count < 0 {
        if errno == EINTR { continue }
        return (bytes, errno == ECONNRESET)
      }
      bytes += chunk[0..<count]
    }
    return (bytes, false)
  }

  /// Reads until `bytes` holds `marker` (or the connection ends).
  public func read(until marker: String) -> String {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while !String(decoding: bytes, as: UTF8.self).hasSuffix(marker) {
      guard recv(fd, &byte, 1, 0) == 1 else { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - WebSocket

  /// Asks to upgrade to the preview's WebSocket as a page of this server; returns the
  /// response head.
  public func upgrade(port: Int, host: String? = nil, origin: String? = nil) -> String {
    let authority = host ?? "127.0.0.1:\(port)"
    send(
      "GET /ws HTTP/1.1\r\nHost: \(authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Origin: \(origin ?? "http://" + authority)\r\n\r\n")
    return read(until: "\r\n\r\n")
  }

  /// A client frame: masked unless told otherwise (RFC 6455 requires it).
  public static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true)
    -> [UInt8]
  {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    let mask: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
      bytes.append(mask | UInt8(payload.count))
    } else {
      bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    guard masked else { return bytes + payload }
    let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
  }

  /// The server's frames in `bytes`: opcode and payload of each (server frames are never
  /// masked).
  public static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
    var frames: [(UInt8, [UInt8])] = []
    var i = 0
    while i + 2 <= bytes.count {
      let opcode = bytes[i] & 0x0F
      var length = Int(bytes[i + 1] & 0x7F)
      var start = i + 2
      if length == 126 {
        guard start + 2 <= bytes.count else { break }
        length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
        start += 2
      } else if length == 127 {
        guard start + 8 <= bytes.count else { break }
        length = bytes[start..<(start + 8)].reduce(0) { $0 << 8 | Int($1) }
        start += 8
      }
      guard start + length <= bytes.count else { break }
      frames.append((opcode, Array(bytes[start..<(start + length)])))
      i = start + length
    }
    return frames
  }

  /// The close code the server sent, if it sent a close frame.
  public static func closeCode(in bytes: [UInt8]) -> Int? {
    guard let close = frames(in: bytes).first(where: { $0.opcode == 8 }), close.payload.count >= 2
    else { return nil }
    return Int(close.payload[0]) << 8 | Int(close.payload[1])
  }
}

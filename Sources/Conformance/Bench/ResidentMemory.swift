import Foundation
import Synchronization
import PickerLogic

/// Resident memory of this process from /proc: now and its peak, in megabytes.
enum ResidentMemory {
  static func read() -> (current: Double, peak: Double) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return (0, 0)
    }
    // Lines read "VmRSS:\t  123456 kB".
    func field(_ name: String) -> Double {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
      return (Double(String(line.filter(\.isNumber))) ?? 0) / 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
  }
}

/// Failing cases grouped by check and the shape of their difference, largest first: what a
/// reviewer reads instead of thousands of rows.
public struct FailureCluster: Sendable {
  public var check: String
  public var pattern: String
  public var status: Outcome.Status
  public var cases: [CaseResult]

  /// For each dimension, how many distinct values the cluster spans and the first few.
  public var span: [(dimension: String, count: Int, examples: [String])] {
    var order: [String] = []
    var values: [String: [String]] = [:]
    var seen: [String: Set<String>] = [:]
    for result in cases {
      for (key, value) in result.id.dimensionValues {
        if values[key] == nil { order.append(key) }
        if seen[key, default: []].insert(value).inserted {
          values[key, default: []].append(value)
        }
      }
    }
    return order.map { key in
      let all = values[key] ?? []
      return (key, all.count, Array(all.prefix(6)))
    }
  }

  /// Groups failed and errored cases; clusters sorted by size, then check and pattern.
  public static func make(_ problems: [CaseResult]) -> [FailureCluster] {
    var clusters: [String: FailureCluster] = [:]
    var order: [String] = []
    for result in problems {
      let key = "\(result.id.check)\u{1}\(result.outcome.status)\u{1}\(result.outcome.pattern)"
      if clusters[key] == nil {
        order.append(key)
        clusters[key] = FailureCluster(check: result.id.check, pattern: result.outcome.pattern,
                                       status: result.outcome.status, cases: [])
      }
      clusters[key]?.cases.append(result)
    }
    return order.compactMap { clusters[$0] }.sorted {
      ($0.cases.count, $1.check, $1.pattern) > ($1.cases.count, $0.check, $0.pattern)
    }
  }
}

/// Makes invisible or look-alike characters visible: `"1 Jan"` with U+202F reads
/// `1⟨U+202F⟩Jan`, so a reader can tell it from a plain space.
public enum CodePoints {
  public static func annotate(_ text: String) -> String {
    var output = ""
    for scalar in text.unicodeScalars {
      if needsName(scalar) {
        output += "⟨U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "⟩"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  static func needsName(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == " " { return false }
    switch scalar.properties.generalCategory {
    case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark,
      .enclosingMark:
      return true
    default:
      return false
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

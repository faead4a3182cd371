import Foundation

/// Cases per status.
package struct StatusCounts: Sendable, Equatable, Codable {
  package var passed = 0
  package var failed = 0
  package var errored = 0
  package var skipped = 0
  /// Cases the breaker did not run (`CaseStatus.notRun`).
  package var notRun = 0
  package var waived = 0
  /// Failures that are only libicu's older data (`CaseStatus.oracleStale`).
  package var oracleStale = 0
  package var unexpectedPass = 0

  package init() {}

  package var total: Int { passed + failed + errored + skipped + notRun + waived + oracleStale + unexpectedPass }

  package mutating func add(_ status: CaseStatus) {
    switch status {
    case .passed: passed += 1
    case .failed: failed += 1
    case .errored: errored += 1
    case .skipped: skipped += 1
    case .notRun: notRun += 1
    case .waived: waived += 1
    case .oracleStale: oracleStale += 1
    case .unexpectedPass: unexpectedPass += 1
    }
  }

  package mutating func add(_ other: StatusCounts) {
    passed += other.passed
    failed += other.failed
    errored += other.errored
    skipped += other.skipped
    notRun += other.notRun
    waived += other.waived
    oracleStale += other.oracleStale
    unexpectedPass += other.unexpectedPass
  }

  enum CodingKeys: String, CodingKey {
    case cases, passed, failed, errored, skipped, notRun, waived, oracleStale, unexpectedPass = "unexpectedPasses"
  }

  /// Each status's count and its key, in the order every reader and writer of the counts
  /// (results.json, step records, `compare`) gives them; `cases`, their total, comes first.
  static let fields: [(key: CodingKeys, path: WritableKeyPath<StatusCounts, Int> & Sendable)] = [
    (.passed, \.passed), (.failed, \.failed), (.errored, \.errored), (.skipped, \.skipped),
    (.notRun, \.notRun), (.waived, \.waived), (.oracleStale, \.oracleStale), (.unexpectedPass, \.unexpectedPass),
  ]

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    for (key, path) in Self.fields {
      // Counts written before oracle-stale and not-run were statuses have none.
      self[keyPath: path] = key == .oracleStale || key == .notRun ? try container.decodeIfPresent(Int.self, forKey: key) ?? 0
        : try container.decode(Int.self, forKey: key)
    }
    if let cases = try container.decodeIfPresent(Int.self, forKey: .cases), cases != total {
      throw DecodingError.dataCorruptedError(
        forKey: .cases, in: container,
        debugDescription: "\(cases) cases, but the statuses add up to \(total)")
    }
  }

  /// With the total (`cases`), which a reader would otherwise add up.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(total, forKey: .cases)
    for (key, path) in Self.fields { try container.encode(self[keyPath: path], forKey: key) }
  }
}

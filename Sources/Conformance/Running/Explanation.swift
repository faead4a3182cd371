import Foundation
import ICUOracle

/// `conformance explain <case-id>`: re-runs one case and prints its inputs and values.
public enum Explanation {
  /// Evaluates the case named by `text` and describes it.
  ///
  /// - Throws: `InputError` when the id is malformed or names something libicu does not know.
  public static func run(_ text: String, corporaDirectory: URL, subject: Subject = .pickerLogic)
    throws -> (status: ExitStatus, lines: [String])
  {
    let id = try CaseID(parsing: text)
    guard let check = CheckCatalog.check(id.check) else {
      throw InputError("unknown check '\(id.check)' in case id '\(text)'")
    }
    let missing = check.dimensions.filter { dimension in
      switch dimension {
      case .locale: id.locale == nil
      case .calendar: id.calendar == nil
      case .firstWeekday: id.firstWeekday == nil
      case .zone: id.zone == nil
      case .month: id.month == nil
      case .variant: id.variant == nil
      }
    }
    guard missing.isEmpty else {
      throw InputError("case id '\(text)' lacks \(missing.map(\.rawValue).joined(separator: ", "))")
    }
    var request = CorpusRequest(corporaDirectory: corporaDirectory)
    request.locales = id.locale.map { .list([$0]) } ?? .list(["en_US"])
    request.calendars = id.calendar.map { .list([$0]) } ?? .list(["gregorian"])
    request.zones = id.zone.map { .list([$0]) } ?? .list(["UTC"])
    let variantYear = id.variant.flatMap { $0.hasPrefix("year-") ? Int($0.dropFirst(5)) : nil }
    if let year = id.month?.gregorian.year ?? variantYear {
      request.years = max(year - 1, CorpusRequest.supportedYears.lowerBound)...min(
        year + 1, CorpusRequest.supportedYears.upperBound)
    }
    if !check.dimensions.contains(.locale), id.firstWeekday == .own {
      throw InputError("case id '\(text)': fw=own needs a locale; use 1…7")
    }
    let corpus = try Corpus.load(request)
    let variants = check.variants(in: corpus)
    if let variant = id.variant, !variants.contains(variant) {
      throw InputError("case id '\(text)': variant '\(variant)' is not one of "
        + variants.prefix(8).joined(separator: ", ") + (variants.count > 8 ? ", …" : ""))
    }
    let (context, triage) = EvaluationContext.worker(corpus: corpus, subject: subject)
    if id.month != nil { _ = try context.month(of: id) }
    let record = Runner.evaluate(id, step: 0, check: check, context: context, triage: triage)
    let outcome = record.outcome
    // Foundation's ICU's own view of the case, for its intermediate values.
    let second = triage.map { Runner.evaluate(id, check: check, context: $0) }
    let versions = try RunVersions.current()
    var lines = [
      "case:     \(id)",
      "check:    \(check.id): \(check.summary)",
      "inputs:   \(id.coordinates)",
    ]
    if let spelling = id.locale {
      lines.append("locale:   \(spelling) (libicu id \(try Corpus.harness { try corpus.localeCatalog.icuID(for: spelling) }))")
    }
    lines += [
      "status:   \(outcome.verdict.rawValue)\(outcome.pattern.isEmpty ? "" : " (\(outcome.pattern))")"
        + (record.review.triage.map { ", triage \($0.rawValue)" } ?? ""),
      "expected: \(CodePoints.annotate(outcome.expected.description))   [libicu \(versions.oracle.icu)]",
    ]
    if let second {
      lines.append("expected: \(CodePoints.annotate(second.expected.description))   "
        + "[Foundation's ICU \(versions.subjectICU?.icu ?? "?")]")
    }
    lines.append("actual:   \(CodePoints.annotate(outcome.actual.description))   [Foundation]")
    if let months = outcome.months {
      lines.append("month:    libicu reads \(months.oracle); Foundation reads \(months.subject)"
        + (second?.months.map { "; Foundation's ICU reads \($0.oracle)" } ?? ""))
    }
    lines.append("libicu's view:")
    lines += outcome.detail.map { "  \(CodePoints.annotate($0))" }
    if let second, second.detail != outcome.detail, !second.detail.isEmpty {
      lines.append("Foundation's ICU's view:")
      lines += second.detail.map { "  \(CodePoints.annotate($0))" }
    } else if triage == nil {
      lines.append("triage: off (\(corpus.triageProblem ?? "Foundation's ICU is not reachable"))")
    }
    lines.append(versions.summary)
    return (outcome.isFailure ? .unexpected : .clean, lines)
  }
}

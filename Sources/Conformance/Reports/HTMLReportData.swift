import Foundation

/// The data `index.html` embeds: everything the page shows, bounded in size.
enum HTMLReportData {
  static func make(tally: RunTally, info: RunInfo, history: [NightSummary] = []) -> JSONValue {
    let exit = FailOn(rawValue: info.review.failOn)?.exitLine(tally.totals, newFailures: tally.newFailures) ?? ""
    // New failures and unexpected passes first, then by size.
    let clustered: [JSONValue] = tally.clusters.byUrgency.map { cluster($0, explain: info.explainCommand) }
    let isolated: JSONValue = info.isolation.map(isolation) ?? .null
    let triage = info.triageProblem.map { "off (\($0))" } ?? "on: failures re-evaluated against Foundation's own ICU"
    let options: [JSONValue] = info.options.map { .array([.string($0.name), .string($0.value)]) }
    let meanings: [(String, JSONValue)] = Baseline.Class.allCases.map { ($0.rawValue, .string($0.meaning)) }
    let nights: [NightSummary] = history + (NightSummary.current(tally).map { [$0] } ?? [])
    // Members one statement each: one literal of them all took the type checker seconds.
    var members: [(String, JSONValue)] = []
    members.append(("started", .string(ISO8601DateFormatter().string(from: info.started))))
    members.append(("elapsed", .string(String(format: "%.1f", tally.elapsed))))
    members.append(("arguments", .array(info.arguments.map(JSONValue.string))))
    members.append(("classMeanings", .object(meanings)))
    members.append(("subject", .string(info.subject)))
    members.append(("subjectSide", .string(info.versions.subjectSide)))
    members.append(("versions", ResultsJSON.versions(info.versions)))
    members.append(("options", .array(options)))
    members.append(("triage", .string(triage)))
    members.append(("review", review(info.review, tally: tally, exit: exit)))
    members.append(("checks", checks(tally: tally, info: info)))
    members.append(("clusters", .array(clustered)))
    members.append(("isolation", isolated))
    members.append(("waivers", waivers(info.review)))
    members.append(("heat", heat(tally)))
    members.append(("trend", trend(nights)))
    members.append(("matrices", ResultsJSON.matrices(tally.matrices)))
    members.append(("transitions", ResultsJSON.counts(info.transitionsByKind)))
    members.append(("invariantOnly", .array(info.invariantOnlyCalendars.map(JSONValue.string))))
    members.append(("aliases", .int(info.aliases.count)))
    members.append(("skipReasons", ResultsJSON.counts(tally.skipReasons)))
    return .object(members)
  }

  /// The review: the exit line, the baseline's classes and the waivers' findings.
  static func review(_ review: RunInfo.ReviewSummary, tally: RunTally, exit: String) -> JSONValue {
    let pairs = { (list: [RunInfo.StaleWaiver]) -> JSONValue in
      .array(list.map { .array([.string($0.id), .string($0.why)]) })
    }
    var baselineJSON = JSONValue.null
    if let baseline = review.baseline {
      // In reading order: the page's table takes its columns from it.
      let classes: [(String, JSONValue)] = Baseline.Class.readingOrder.map {
        ($0.rawValue, .int(tally.baselineCounts[$0] ?? 0))
      }
      // The banner's new failures by class (the classes that can hold one).
      let newFailures: [(String, JSONValue)] = NightCounts.newFailureClasses.map {
        ($0.0.rawValue, .int(tally.newFailuresByClass[$0.0] ?? 0))
      }
      baselineJSON = .object([
        ("path", .string(baseline.path)), ("started", .string(baseline.started)),
        ("versions", .string(baseline.versions)), ("classes", .object(classes)),
        ("newFailures", .object(newFailures)), ("legend", .string(NightCounts.baselineLegend(tally))),
      ])
    }
    let matched: [JSONValue] = review.waiverMatches.map { .array([.string($0.id), .int($0.count)]) }
    var members: [(String, JSONValue)] = []
    members.append(("failOn", .string(review.failOn)))
    members.append(("exit", .string(exit)))
    members.append(("baseline", baselineJSON))
    members.append(("stale", pairs(review.stale)))
    members.append(("contradicted", pairs(review.contradicted ?? [])))
    members.append(("outOfScope", pairs(review.outOfScope ?? [])))
    members.append(("unmatchedPartly", .array(review.unmatchedPartly.map(JSONValue.string))))
    members.append(("matched", .array(matched)))
    return .object(members)
  }

  /// Each check's counts and coverage.
  static func checks(tally: RunTally, info: RunInfo) -> JSONValue {
    let coverage = Dictionary(info.coverage.map { ($0.check, $0) }, uniquingKeysWith: { a, _ in a })
    return .array(info.checks.map { check -> JSONValue in
        let counts = tally.checkCounts[check.id] ?? StatusCounts()
        let cover = coverage[check.id]
        let members: [(String, JSONValue)] = [
          ("id", .string(check.id)), ("summary", .string(check.summary)),
          ("cases", .int(counts.total)), ("crossProduct", .int(cover?.crossProduct ?? 0)),
          ("passed", .int(counts.passed)), ("failed", .int(counts.failed + counts.unexpectedPass)),
          ("waived", .int(counts.waived)), ("oracleStale", .int(counts.oracleStale)),
          ("errored", .int(counts.errored)), ("notRun", .int(counts.notRun)),
          ("skipped", .int(counts.skipped)), ("locales", .int(cover?.locales ?? 0)),
          ("calendars", .int(cover?.calendars ?? 0)), ("firstWeekdays", .int(cover?.firstWeekdays ?? 0)),
          ("zones", .int(cover?.zones ?? 0)), ("months", .int(cover?.months ?? 0)),
          ("equivalent", .int(cover?.equivalentZoneMonths ?? 0)),
        ]
        return .object(members)
      })
  }

  /// Each active waiver's reason, link and count, by id.
  static func waivers(_ review: RunInfo.ReviewSummary) -> JSONValue {
    .object(review.waiverMatches.map { waiver in
      let members: [(String, JSONValue)] = [
        ("reason", .string(waiver.reason ?? "")), ("link", .string(waiver.link ?? "")),
        ("count", .int(waiver.count)),
      ]
      return (waiver.id, .object(members))
    })
  }

  /// check → calendar → zone class → [passed, total, counted by --fail-on].
  static func heat(_ tally: RunTally) -> JSONValue {
    .object(tally.heat.sorted { $0.key < $1.key }.map { check, calendars in
      (check, .object(calendars.sorted { $0.key < $1.key }.map { calendar, classes in
        (calendar, .object(classes.sorted { $0.key < $1.key }.map { zoneClass, cell in
          (zoneClass, .array([.int(cell.passed), .int(cell.total), .int(cell.counted)]))
        }))
      }))
    })
  }

  /// The nights the trend shows, oldest first: when, and per check [new, fixed, still failing].
  static func trend(_ nights: [NightSummary]) -> JSONValue {
    .array(nights.map { night in
      let checks: JSONValue = night.checks.map { checks in
        .object(checks.sorted { $0.key < $1.key }.map { check, classes in
          (check, .array([.int(classes.new), .int(classes.fixed), .int(classes.stillFailing)]))
        })
      } ?? .null
      return .object([("started", .string(ISO8601DateFormatter().string(from: night.started))),
                      ("checks", checks)])
    })
  }

  /// The breaker's trips a page lists, most cases not run first.
  static let tripsShown = 100

  /// How the run isolated its cases: the rule, each check's limits, and what the breaker
  /// did not run (the trips with most cases not run, and the totals of all).
  static func isolation(_ summary: IsolationSummary) -> JSONValue {
    // Most cases not run first, then by group and signature.
    let trips = summary.trips.sorted {
      ($0.notRun, $1.group, $1.signature) > ($1.notRun, $0.group, $0.signature)
    }
    return .object([
      ("rule", .string(summary.rule)),
      ("notRun", .int(summary.notRun)), ("tripCount", .int(trips.count)),
      ("trips", .array(trips.prefix(tripsShown).map { trip in
        .array([.string(trip.group), .string(trip.signature), .int(trip.faults), .int(trip.notRun)])
      })),
      ("checks", .array(summary.checks.map { limits in
        .array([.string(limits.check), .double(limits.slowestCaseCPUSeconds),
                .double(limits.caseCPULimitSeconds), .double(limits.caseWallLimitSeconds),
                .double(limits.requestLimitSeconds),
                .double(limits.leastCaseCPULimitSeconds ?? limits.caseCPULimitSeconds)])
      })),
    ])
  }

  /// A cluster as the page draws it. The breaker's cases are a cluster of their own
  /// (`not-run`, the fault's signature as its pattern), beside the errored one they follow.
  static func cluster(_ cluster: FailureCluster, explain: ExplainCommand = ExplainCommand()) -> JSONValue {
    .object([
      ("check", .string(cluster.check)), ("status", .string(cluster.status.rawValue)),
      ("triage", cluster.triage.map { .string($0.rawValue) } ?? .null),
      ("pattern", .string(cluster.pattern)), ("count", .int(cluster.count)),
      ("new", .int(cluster.newCount)),
      // Each dimension: how many values, the first ones, and for the filterable ones
      // their case counts, so the page's counts follow its filters.
      ("span", .array(cluster.values.map { dimension in
        .array([.string(dimension.dimension), .int(dimension.counts.count),
                .array(dimension.ordered.prefix(6).map(JSONValue.string))])
      })),
      ("byValue", .object(cluster.values.filter { ["calendar", "locale", "zone"].contains($0.dimension) }
        .map { dimension in
          (dimension.dimension, .object(dimension.ordered.prefix(HTMLReport.spanValues).map {
            ($0, .int(dimension.counts[$0] ?? 0))
          }))
        })),
      ("waivers", .array(cluster.waivers.sorted { $0.key < $1.key }.map { .array([.string($0.key), .int($0.value)]) })),
      ("examples", .array(cluster.shownExamples(HTMLReport.examplesPerCluster).map { example($0, explain: explain) })),
    ])
  }

  static func example(_ result: CaseRecord, explain: ExplainCommand) -> JSONValue {
    let outcome = result.outcome
    func text(_ value: Value) -> JSONValue {
      let annotated = CodePoints.annotate(value.description)
      return .string(annotated.count <= HTMLReport.valueLength ? annotated
        : String(annotated.prefix(HTMLReport.valueLength)) + " …")
    }
    var members: [(String, JSONValue)] = [
      ("id", .string(result.id.description)),
      ("dims", .object(result.id.dimensionValues.map { ($0.key, .string($0.value)) })),
      // A faulted case has no answer; libicu's expectation, when the parent computed it.
      ("expected", outcome.verdict == .errored && outcome.expected == .null ? .null : text(outcome.expected)),
      ("actual", text(outcome.actual)),
      ("status", .string(result.status.rawValue)), ("new", .bool(result.isNewFailure)),
      ("detail", .array(outcome.detail.prefix(8).map { .string(CodePoints.annotate($0)) })),
      ("explain", .string(explain.text(for: result.id))),
    ]
    // Lists item by item, so the page can mark the items that differ.
    if case .list(let wanted) = outcome.expected, case .list(let got) = outcome.actual,
      wanted.count + got.count <= 2 * HTMLReport.itemsPerList
    {
      let items = { (values: [Value]) in JSONValue.array(values.map { .string(CodePoints.annotate($0.description)) }) }
      members.append(("expectedItems", items(wanted)))
      members.append(("actualItems", items(got)))
    }
    if let second = result.review.triageExpected { members.append(("expectedF", text(second))) }
    if let months = outcome.months {
      members.append(("months", .string("libicu: \(months.oracle); the harness's Foundation Calendar: \(months.subject)")))
    }
    if let baseline = result.review.baseline { members.append(("baseline", .string(baseline.rawValue))) }
    if let waiver = result.review.waiver { members.append(("waiver", .string(waiver))) }
    return .object(members)
  }
}

import Foundation

/// What a run is about: recorded at its start, completed at its end (waiver matches, removed
/// baseline cases), and written into every report. `results.json` holds it as `run`.
package struct RunInfo: Sendable, Codable {
  /// The command line as given, for the report header.
  package var arguments: [String]
  /// The resolved options in a stable order.
  package var options: [RunOption]
  package var versions: RunVersions
  package var coverage: [PlanCoverage]
  package var transitionsByKind: [String: Int]
  package var checks: [CheckInfo]
  package var started: Date
  package var subject: String
  /// How a case of this run is explained (`nil` in runs before explain took the run's
  /// subject, waivers and corpora): use `explainCommand`.
  package var explain: ExplainCommand?
  /// Zone aliases swept as their canonical zone.
  package var aliases: [ZoneAlias] = []
  /// Calendars only Foundation has, checked by invariants alone.
  package var invariantOnlyCalendars: [String] = []
  /// Why triage is off, or `nil` when it ran.
  package var triageProblem: String?
  /// Each zone's class for the report's matrix (its most telling transition kind).
  package var zoneClasses: [String: String] = [:]
  /// Zones that sweep every month (controls), to label them in reports.
  package var monthSweepZones: [String] = []
  /// Waivers and baseline, as far as known when the run starts; completed at its end.
  package var review = ReviewSummary()
  /// In worker processes: the limits each check's cases ran under and the groups the
  /// breaker stopped; completed at the end.
  package var isolation: IsolationSummary?
  /// Records this process and its workers read through `JSONDecoder` because a fast reader
  /// declined them, by reader (`SlowReads`); `nil` when none did. Set when results are written.
  package var slowReads: [String: Int]?
  /// Set when the run did not finish: its reports are partial (`<out>.partial/`).
  package var incomplete: IncompleteRun?

  /// The command that explains a case of this run.
  package var explainCommand: ExplainCommand { explain ?? ExplainCommand() }

  /// One resolved option.
  package struct RunOption: Sendable, Codable, Equatable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// A check of the run and what it compares.
  package struct CheckInfo: Sendable, Codable, Equatable {
    package var id: String
    package var summary: String

    package init(id: String, summary: String) {
      self.id = id
      self.summary = summary
    }
  }

  /// A zone id swept as its canonical zone (their transitions agree in the window).
  package struct ZoneAlias: Sendable, Codable, Equatable {
    package var alias: String
    package var canonical: String
  }

  /// What the run expected: its waivers, its baseline, its exit rule.
  package struct ReviewSummary: Sendable, Codable {
    package var failOn = FailOn.unexpected.rawValue
    package var waiverFile: String?
    /// How many cases each active waiver matched, in file order.
    package var waiverMatches: [WaiverCount] = []
    /// The active waiver that explains a case, with its reason and link.
    package func waiver(_ id: String) -> WaiverCount? { waiverMatches.first { $0.id == id } }

    /// Waivers that matched nothing where this run swept only part of what they can match:
    /// not stale, since the rest of their selection may still fail.
    package var unmatchedPartly: [String] = []
    /// Waivers that matched nothing of what they can match, expired, or whose versions do
    /// not hold.
    package var stale: [StaleWaiver] = []
    /// Waivers whose claim (their triage) some cases they match contradict, each with how many
    /// and which triage those cases have instead; `nil` in runs before claims were checked.
    package var contradicted: [StaleWaiver]?
    /// Waivers that matched cases newly failing against the baseline which their scope does
    /// not list, each with how many: those cases count as new failures. `nil` in runs before
    /// scopes.
    package var outOfScope: [StaleWaiver]?
    /// Waivers of the file about other subjects than this run's (the seeds' logic, for a
    /// team's subject), each with whom it is about: not applied. `nil` in runs before waivers
    /// named their subjects.
    package var otherSubjects: [StaleWaiver]?
    package var baseline: BaselineReference?
    /// The baseline's failing cases this run did not sweep.
    package var removed: [String] = []

    package init() {}

    /// Stale waivers' reason when they matched nothing.
    static let matchedNothing = "matched no case of this run"

    /// The summary completed once the sweep has ended: each active waiver's matches (in
    /// file order), the stale waivers (active ones that matched nothing, then the inactive
    /// ones with their reasons) and the baseline's cases this run does not sweep.
    ///
    /// - Parameter shard: the run is one shard of a split: it sweeps part of every waiver's
    ///   selection, so none that matched nothing is stale here (`merge` judges the whole).
    func completed(activeWaivers: [WaiverCount], matches: [String: Int], inactive: [StaleWaiver],
                   removed: [String], contradictions: [String: Int] = [:],
                   outOfScope: [String: Int] = [:], shard: Bool = false)
      -> ReviewSummary
    {
      var summary = self
      summary.contradicted = activeWaivers.compactMap { waiver in
        guard let count = contradictions[waiver.id], count > 0 else { return nil }
        return StaleWaiver(id: waiver.id, why: "its claim does not hold for \(CountText.counted(count, "case")) "
          + "it matches (their triage differs; each case's detail says which): not waived")
      }
      summary.outOfScope = activeWaivers.compactMap { waiver in
        guard let count = outOfScope[waiver.id], count > 0 else { return nil }
        return StaleWaiver(id: waiver.id, why: "matched \(CountText.counted(count, "new failure")) "
          + "its scope does not list (they passed in the baseline): written for other cases, not waived")
      }
      summary.waiverMatches = activeWaivers.map { waiver in
        var counted = waiver
        counted.count = matches[waiver.id] ?? 0
        return counted
      }
      // A waiver that matched cases it did not waive (a contradicted claim, new failures
      // outside its scope) matched something: it is neither stale nor unmatched.
      let matchedNothing = summary.waiverMatches.filter {
        $0.count == 0 && (contradictions[$0.id] ?? 0) == 0 && (outOfScope[$0.id] ?? 0) == 0
      }
      summary.stale = matchedNothing.filter { $0.sweptWhole != false && !shard }
        .map { StaleWaiver(id: $0.id, why: Self.matchedNothing) } + inactive
      summary.unmatchedPartly = matchedNothing.filter { $0.sweptWhole == false || shard }.map(\.id)
      summary.removed = removed
      return summary
    }
  }

  /// How many cases one waiver matched.
  package struct WaiverCount: Sendable, Codable, Equatable {
    package var id: String
    package var count: Int
    /// Why the difference is known, and where it is tracked (the waiver file's words), so
    /// every report can say it where it shows a waived case.
    package var reason: String?
    package var link: String?
    /// Whether the run swept every case the waiver can match (`Waiver.sweptWhole`): only
    /// then does matching nothing make it stale. `nil` in files written before it was kept.
    package var sweptWhole: Bool?
    /// The run's checks it applies to: each gets a JUnit testcase for it every night, with
    /// cases or without. `nil` in files written before it was kept.
    package var checks: [String]?

    package init(id: String, count: Int, reason: String? = nil, link: String? = nil,
                sweptWhole: Bool? = nil, checks: [String]? = nil) {
      (self.id, self.count, self.reason, self.link) = (id, count, reason, link)
      (self.sweptWhole, self.checks) = (sweptWhole, checks)
    }

    /// "reason (link)", or whichever of the two there is.
    package var explanation: String {
      let reason = self.reason ?? ""
      guard let link, !link.isEmpty else { return reason }
      return reason.isEmpty ? link : "\(reason) (\(link))"
    }
  }

  /// A waiver that explained nothing in this run, and why.
  package struct StaleWaiver: Sendable, Codable, Equatable {
    package var id: String
    package var why: String
  }

  package init(arguments: [String], options: [RunOption], versions: RunVersions,
              coverage: [PlanCoverage], transitionsByKind: [String: Int],
              checks: [CheckInfo], started: Date, subject: String) {
    self.arguments = arguments
    self.options = options
    self.versions = versions
    self.coverage = coverage
    self.transitionsByKind = transitionsByKind
    self.checks = checks
    self.started = started
    self.subject = subject
  }

  /// The value of one option, as the run reported it.
  package func option(_ name: String) -> String? { options.first { $0.name == name }?.value }
}

/// A run that did not finish: a signal (or its test runner gone) stopped it after part of
/// its plan. What it had is written as a partial report beside the last complete one.
package struct IncompleteRun: Sendable, Codable, Equatable {
  /// What stopped it: `SIGTERM`, `SIGINT`.
  package var interruptedBy: String
  /// Cases whose steps were delivered before it stopped, of the plan's.
  package var casesRun: Int
  package var casesPlanned: Int

  /// As every surface says it.
  package var sentence: String {
    "INCOMPLETE: interrupted by \(interruptedBy) after \(CountText.number(casesRun)) of "
      + "\(CountText.number(casesPlanned)) cases; this partial report holds only those"
  }
}

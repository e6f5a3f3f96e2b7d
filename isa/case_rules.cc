// The rules on what a case adds to its program: [uav] bindings, counters,
// [expect] sections, and the dispatch's limits.
#include "isa/case_rules.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "isa/raster.h"
#include "isa/spelling.h"
#include "isa/validation_rules.h"

namespace atomfuzz::isa {
namespace {

bool TypeMatchesFormat(ReturnType t, Format f) {
  return (t == ReturnType::kUint && f == Format::kR32Uint) ||
         (t == ReturnType::kSint && f == Format::kR32Sint) ||
         (t == ReturnType::kFloat && f == Format::kR32Float);
}

// The [uav] section bound to the u# that `dcl` declares.
void CheckUavBinding(const Case& c, uint32_t slot, const Instruction* dcl,
                     DiagnosticSink& sink) {
  // Out of range: reported as register-range, and no [uav] can bind it.
  if (slot > kMaxUavSlot) return;
  const Resource* r = c.FindResource(slot);
  // Spelled only for a diagnostic: this runs for every UAV of every case.
  auto what = [slot] { return absl::StrCat("u", slot); };
  if (r == nullptr) {
    Violation(sink, RuleId::kResourceBinding, dcl->line,
              absl::StrCat("a [uav ", what(), "] section for ", what()),
              "none");
    return;
  }
  auto mismatch = [&](std::string expected, std::string found) {
    Violation(sink, RuleId::kResourceBinding, r->line, std::move(expected),
              std::move(found));
  };
  switch (dcl->op) {
    case Op::kDclUavRaw:
      if (r->kind != ResourceKind::kRaw)
        mismatch(absl::StrCat("kind raw, as declared for ", what()),
                 absl::StrCat("kind ", ResourceKindName(r->kind)));
      break;
    case Op::kDclUavStructured:
      if (r->kind != ResourceKind::kStructured ||
          r->stride != dcl->operands[1].index) {
        mismatch(absl::StrCat("kind structured with stride ",
                              dcl->operands[1].index, ", as declared"),
                 absl::StrCat("kind ", ResourceKindName(r->kind),
                              r->kind == ResourceKind::kStructured
                                  ? absl::StrCat(" stride ", r->stride)
                                  : ""));
      }
      if (dcl->opc && !r->counter) {
        Violation(
            sink, RuleId::kOpcNeedsCounter, r->line,
            absl::StrCat("a 'counter' line for ", what(), ", declared _opc"),
            "none");
      }
      break;
    default:
      if (r->kind != ResourceKind::kTyped || r->dim != dcl->dim) {
        mismatch(absl::StrCat("kind typed, dim ", DimName(dcl->dim),
                              ", as declared"),
                 absl::StrCat("kind ", ResourceKindName(r->kind),
                              r->kind == ResourceKind::kTyped
                                  ? absl::StrCat(" dim ", DimName(r->dim))
                                  : ""));
      } else if (!TypeMatchesFormat(dcl->types[0], r->format)) {
        mismatch(absl::StrCat("a format matching (",
                              ReturnTypeName(dcl->types[0]), ",...)"),
                 absl::StrCat("format ", FormatName(r->format)));
      }
      break;
  }
}

void CheckBinding(const Case& c, const Declarations& d, DiagnosticSink& sink) {
  d.uavs.ForEach([&](uint32_t slot, const Instruction* dcl) {
    CheckUavBinding(c, slot, dcl, sink);
  });
  for (const Resource& r : c.resources) {
    if (!d.uavs.contains(r.slot)) {
      Violation(sink, RuleId::kResourceBinding, r.line,
                absl::StrCat("a dcl_uav_* for the bound u", r.slot), "none");
    }
    if (r.counter && r.kind != ResourceKind::kStructured) {  // spec 1.6
      Violation(
          sink, RuleId::kResourceBinding, r.line,
          "a counter on structured UAVs only",
          absl::StrCat("a counter on a ", ResourceKindName(r.kind), " UAV"));
    }
  }
}

// Counters on other kinds are reported as memory-kind (the instruction) or
// resource-binding (the view).
void CheckCounters(const Case& c, const Program& p, DiagnosticSink& sink) {
  for (const Instruction& i : p.instructions) {
    if (i.info().family != Family::kCounter) continue;
    const Resource* r = c.FindResource(i.operands[1].index);
    if (r != nullptr && r->kind == ResourceKind::kStructured && !r->counter) {
      Violation(sink, RuleId::kCounterNeedsCounter, i.line,
                absl::StrCat("a 'counter' line in [uav u", r->slot, "]"),
                "a UAV without a counter");
    }
  }
}

std::string Triple(const std::array<uint32_t, 3>& v) {
  return absl::StrCat(v[0], ", ", v[1], ", ", v[2]);
}

// The pixel form: a primitive of the draw, a pixel of the framebuffer, a
// sample of its pattern.
void CheckReturnPixel(const ReturnExpectation& e, const Case& c,
                      DiagnosticSink& sink) {
  const Draw& d = c.draw;
  if (e.form != InvocationForm::kPixel) {
    Violation(sink, RuleId::kExpectation, e.line,
              "'primitive P pixel X, Y [sample S]' in a ps_5_0 case",
              "'group ... thread ...'");
    return;
  }
  if (e.group[0] >= d.triangles.size() || e.thread[0] >= d.width ||
      e.thread[1] >= d.height || e.thread[2] >= d.samples) {
    Violation(sink, RuleId::kExpectation, e.line,
              absl::StrCat("a primitive below ", d.triangles.size(),
                           ", a pixel inside ", d.width, "x", d.height,
                           " and a sample below ", d.samples),
              absl::StrCat("primitive ", e.group[0], " pixel ", e.thread[0],
                           ", ", e.thread[1], " sample ", e.thread[2]));
  }
}

// An expectation about a thread that never runs could never fail.
void CheckReturnThread(const ReturnExpectation& e, const Case& c,
                       const Declarations& d, DiagnosticSink& sink) {
  if (c.shader.pixel()) return CheckReturnPixel(e, c, sink);
  if (e.form != InvocationForm::kThread) {
    Violation(sink, RuleId::kExpectation, e.line,
              "'group X, Y, Z thread X, Y, Z' in a cs_5_0 case",
              "'primitive ... pixel ...'");
    return;
  }
  using Xyz = std::array<uint32_t, 3>;
  auto inside = [&](absl::string_view what, const Xyz& v, const Xyz& extent,
                    absl::string_view where) {
    if (v[0] >= extent[0] || v[1] >= extent[1] || v[2] >= extent[2]) {
      Violation(sink, RuleId::kExpectation, e.line,
                absl::StrCat("a ", what, " inside the ", where, Triple(extent)),
                absl::StrCat(what, " ", Triple(v)));
    }
  };
  inside("group", e.group, c.groups, "dispatch ");
  if (const Instruction* tg = d.thread_group) {  // else reported already
    const OperandList& o = tg->operands;
    inside("thread", e.thread, {o[0].index, o[1].index, o[2].index}, "group ");
  }
}

void CheckExpectations(const Case& c, const Declarations& d,
                       DiagnosticSink& sink) {
  for (const WordExpectation& w : c.expect_words) {
    const Resource* r = c.FindResource(w.slot);
    if (r == nullptr || w.last >= r->init.size()) {
      Violation(sink, RuleId::kExpectation, w.line,
                r ? absl::StrCat("word indices below ", r->init.size())
                  : absl::StrCat("a bound u", w.slot),
                absl::StrCat("word ", w.last));
    }
  }
  for (const CounterExpectation& k : c.expect_counters) {
    const Resource* r = c.FindResource(k.slot);
    if (r == nullptr || !r->counter) {
      Violation(sink, RuleId::kExpectation, k.line,
                absl::StrCat("a counter on u", k.slot), "none");
    }
  }
  if (c.expect_returns.empty()) return;  // mutants and fresh cases have none
  uint32_t returning = 0;
  for (const Instruction& i : c.shader.instructions) {
    if (i.info().returns_old()) ++returning;
  }
  for (const ReturnExpectation& e : c.expect_returns) {
    if (e.atomic >= returning) {
      Violation(sink, RuleId::kExpectation, e.line,
                absl::StrCat("an atomic number below ", returning),
                absl::StrCat(e.atomic));
    }
    CheckReturnThread(e, c, d, sink);
  }
}

// A pixel case's [draw] (docs/pixel-stage.md P.1), or a compute case's
// lack of one.
void CheckDraw(const Case& c, DiagnosticSink& sink) {
  const Draw& d = c.draw;
  const int line = c.draw_line;
  auto bad = [&](int at, std::string expected, std::string found) {
    Violation(sink, RuleId::kDraw, at, std::move(expected), std::move(found));
  };
  if (!c.shader.pixel()) {
    if (line != 0 || !(d == Draw{})) {
      bad(line, "no [draw] in a cs_5_0 case", "a [draw] section");
    }
    return;
  }
  if (c.dispatch_line != 0) {
    bad(c.dispatch_line, "no [dispatch] in a ps_5_0 case (it draws)",
        "a [dispatch] section");
  }
  // A case built in memory has no lines: its draw is what it has.
  if (line == 0 && d == Draw{}) {
    return bad(0, "a [draw] section in a ps_5_0 case", "none");
  }
  if (d.width < 1 || d.width > kMaxFramebufferSide || d.height < 1 ||
      d.height > kMaxFramebufferSide) {
    bad(line,
        absl::StrCat("a framebuffer of 1..", kMaxFramebufferSide,
                     " pixels a side"),
        absl::StrCat(d.width, ", ", d.height));
  }
  if (d.samples != 1 && d.samples != 4) {
    bad(line, "samples 1 or 4", absl::StrCat(d.samples));
  }
  if (d.triangles.empty() || d.triangles.size() > kMaxTriangles) {
    bad(line, absl::StrCat("1..", kMaxTriangles, " triangles"),
        absl::StrCat(d.triangles.size()));
  }
  constexpr int32_t lo = -kVertexReach * kSubpixelsPerPixel;
  constexpr int32_t hi =
      (static_cast<int32_t>(kMaxFramebufferSide) + kVertexReach) *
      kSubpixelsPerPixel;
  for (const Triangle& t : d.triangles) {
    for (const auto& v : t.v) {
      if (v[0] < lo || v[0] > hi || v[1] < lo || v[1] > hi) {
        bad(t.line,
            absl::StrCat("vertices within ", -kVertexReach, "..",
                         kMaxFramebufferSide + kVertexReach, " pixels"),
            absl::StrCat(FormatCoordinate(v[0]), " ", FormatCoordinate(v[1])));
        return;
      }
    }
  }
  if (d.samples != 1 && d.samples != 4) return;
  if (auto problem = ClearMarginProblem(d)) {
    bad(line, "every sample point 1/64 pixel or more from every edge",
        *problem);
  }
}

}  // namespace

// The rules on what the case adds to its program.
void CheckCaseRules(const Case& c, const Declarations& d,
                    DiagnosticSink& sink) {
  if (*std::max_element(c.groups.begin(), c.groups.end()) > 65535) {
    // The Case keeps no line for [dispatch].
    Violation(sink, RuleId::kDispatch, c.dispatch_line, "group counts <= 65535",
              Triple(c.groups));
  }
  CheckDraw(c, sink);
  CheckBinding(c, d, sink);
  CheckCounters(c, c.shader, sink);
  CheckExpectations(c, d, sink);
}

}  // namespace atomfuzz::isa

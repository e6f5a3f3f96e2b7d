// Execution: building a pass from its case (memories, groups, threads and
// their registers, in storage kept from earlier passes), and handing over
// its outcome.
#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "oracle/execution.h"

namespace atomfuzz::oracle {

using isa::Op;
using isa::Operand;
using isa::RegFile;

Execution::Execution(const isa::Case& c, const ControlMap& map,
                     const DecodedProgram& decoded,
                     const InterpretOptions& options, const AccessLog& known,
                     Replay* replay, ExecutionStorage* storage)
    : case_(c),
      program_(c.shader),
      map_(map),
      options_(options),
      known_(known),
      replay_(replay),
      storage_(storage),
      prng_(options.schedule.seed),
      temps_(decoded.temps),
      decoded_(decoded.code),
      declarations_(decoded.declarations),
      leading_decls_(decoded.leading_decls),
      atomic_count_(decoded.atomic_count),
      program_info_(decoded) {
  if (storage_ != nullptr) {
    xsizes_ = std::move(storage_->xsizes);
    uavs_ = std::move(storage_->uavs);
    tgsm_layouts_ = std::move(storage_->tgsm_layouts);
    groups_ = std::move(storage_->groups);
    threads_ = std::move(storage_->threads);
    reg_pool_ = std::move(storage_->reg_pool);
    occurrence_pool_ = std::move(storage_->occurrence_pool);
    log_ = std::move(storage_->log);
    spare_words_ = std::move(storage_->spare_words);
    spare_tgsm_ = std::move(storage_->spare_tgsm);
    sets_ = std::move(storage_->sets);
    sets_.Clear();
    last_writes_ = std::move(storage_->last_writes);
    last_writes_.clear();
    racing_writes_ = std::move(storage_->racing_writes);
    // Emptied, not freed: Setup fills them afresh, UAVs' words in the room
    // of the last pass's.
    xsizes_.clear();
    for (std::optional<Uav>& u : uavs_) {
      if (u) spare_words_.push_back(std::move(u->words));
    }
    uavs_.clear();
    tgsm_layouts_.clear();
    log_.Clear();
  }
  if (replay_ != nullptr) replay_->UseSets(&sets_);
  // A later pass touches about the words the earlier ones did.
  log_.Reserve(known.WordCount());
}

Execution::~Execution() {
  if (replay_ != nullptr) replay_->UseSets(nullptr);
  if (storage_ == nullptr) return;
  storage_->xsizes = std::move(xsizes_);
  storage_->uavs = std::move(uavs_);
  storage_->tgsm_layouts = std::move(tgsm_layouts_);
  storage_->groups = std::move(groups_);
  storage_->threads = std::move(threads_);
  storage_->reg_pool = std::move(reg_pool_);
  storage_->occurrence_pool = std::move(occurrence_pool_);
  storage_->spare_words = std::move(spare_words_);
  storage_->spare_tgsm = std::move(spare_tgsm_);
  storage_->log = std::move(log_);
  storage_->sets = std::move(sets_);
  storage_->last_writes = std::move(last_writes_);
  storage_->racing_writes = std::move(racing_writes_);
}

absl::Status Execution::Setup() {
  const auto& code = program_.instructions;
  for (const uint32_t i : declarations_) {
    const isa::Instruction& inst = code[i];
    const auto& ops = inst.operands;
    switch (inst.op) {
      case Op::kDclIndexableTemp:
        if (ops[0].index >= 4096 || ops[0].offset > 4096) {
          return absl::InvalidArgumentError("indexable temp beyond 4096");
        }
        if (xsizes_.size() <= ops[0].index) xsizes_.resize(ops[0].index + 1, 0);
        xsizes_[ops[0].index] = ops[0].offset;
        break;
      case Op::kDclThreadGroup:
        group_size_ = {ops[0].index, ops[1].index, ops[2].index};
        break;
      case Op::kDclUavRaw:
      case Op::kDclUavStructured:
      case Op::kDclUavTyped: {
        const uint32_t slot = ops[0].index;
        const isa::Resource* r = case_.FindResource(slot);
        if (r == nullptr || slot > isa::kMaxUavSlot) {
          return absl::InvalidArgumentError(
              absl::StrCat("u", slot, " is not bound"));
        }
        Uav u;
        u.layout.words = r->init.size();
        switch (r->kind) {
          case isa::ResourceKind::kRaw:
            u.layout.kind = Layout::Kind::kRaw;
            break;
          case isa::ResourceKind::kStructured:
            u.layout.kind = Layout::Kind::kStructured;
            u.layout.stride = r->stride;
            u.layout.elements = r->elements;
            break;
          case isa::ResourceKind::kTyped:
            u.layout.kind = Layout::Kind::kTyped;
            u.layout.dim = r->dim;
            u.layout.size = r->size;
            break;
        }
        const Op want = r->kind == isa::ResourceKind::kRaw ? Op::kDclUavRaw
                        : r->kind == isa::ResourceKind::kStructured
                            ? Op::kDclUavStructured
                            : Op::kDclUavTyped;
        if (want != inst.op) {
          return absl::InvalidArgumentError(absl::StrCat(
              "u", slot, " is bound to a resource of another kind"));
        }
        u.format = r->format;
        if (!spare_words_.empty()) {
          u.words = std::move(spare_words_.back());
          spare_words_.pop_back();
          u.words.clear();
        }
        u.words.reserve(r->init.size());
        for (uint32_t w : r->init) u.words.push_back(Value::Of(w));
        if (r->counter) u.counter = Value::Of(*r->counter);
        if (uavs_.size() <= slot) uavs_.resize(slot + 1);
        uavs_[slot] = std::move(u);
        break;
      }
      case Op::kDclTgsmRaw:
      case Op::kDclTgsmStructured: {
        const uint32_t slot = ops[0].index;
        if (slot >= 8192) return absl::InvalidArgumentError("g# beyond 8191");
        Layout l;
        l.tgsm = true;
        if (inst.op == Op::kDclTgsmRaw) {
          l.kind = Layout::Kind::kRaw;
          l.words = ops[1].index / 4;
        } else {
          l.kind = Layout::Kind::kStructured;
          l.stride = ops[1].index;
          l.elements = ops[2].index;
          l.words = uint64_t{ops[1].index / 4} * ops[2].index;
        }
        if (l.words > 8192) return absl::InvalidArgumentError("g# over 32 KiB");
        if (tgsm_layouts_.size() <= slot) tgsm_layouts_.resize(slot + 1);
        tgsm_layouts_[slot] = l;
        break;
      }
      default: break;
    }
  }
  if (program_.pixel()) return SetupPixel();
  // Each product saturates just past its cap: three 32-bit extents could
  // wrap 64 bits and slip through.
  auto capped = [](const std::array<uint32_t, 3>& v, uint64_t cap) {
    uint64_t n = 1;
    for (uint32_t x : v) n = std::min<uint64_t>(n * x, cap + 1);
    return n;
  };
  const uint64_t per_group = capped(group_size_, 1024);
  const uint64_t group_count = capped(case_.groups, options_.max_threads);
  const uint64_t threads =
      std::min(per_group * group_count, options_.max_threads + 1);
  uint64_t xvalues = 0;
  for (uint32_t s : xsizes_) xvalues += uint64_t{s} * 4;
  if (per_group == 0 || per_group > 1024 || threads > options_.max_threads ||
      group_count >= AccessLog::kMaxGroups ||
      threads * (uint64_t{temps_} * 4 + xvalues) >
          options_.max_register_values) {
    return absl::InvalidArgumentError(absl::StrCat(
        "case too large for the oracle: groups of ", group_size_[0], "x",
        group_size_[1], "x", group_size_[2], " in a dispatch of ",
        case_.groups[0], "x", case_.groups[1], "x", case_.groups[2], ", ",
        temps_, " temps"));
  }
  // Resized, every field set below or (threads) by StartGroup: the vectors
  // may hold a last pass's groups and threads, whose g# and x# keep their
  // room.
  groups_.resize(group_count);
  threads_.resize(threads);
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const uint64_t live = canonical ? per_group : threads;
  reg_pool_.resize(live * (kSystemValueCount + size_t{temps_} * 4));
  occurrence_pool_.resize(live * atomic_count_);
  for (uint64_t g = 0; g < group_count; ++g) {
    Group& group = groups_[g];
    group.tgsm_interval = 0;
    group.uav_interval = 0;
    group.first_thread = static_cast<uint32_t>(g * per_group);
    group.thread_count = static_cast<uint32_t>(per_group);
  }
  return absl::OkStatus();
}

void Execution::StartGroup(uint32_t g) {
  if (pixel_) return StartQuad(g);
  Group& group = groups_[g];
  // Spec 1.8, E-22: TGSM is undefined at group start. Filled in the room of
  // an earlier group's, if any (assigning keeps the inner vectors' room).
  group.tgsm.swap(spare_tgsm_);
  group.tgsm.assign(tgsm_layouts_.size(), {});
  for (size_t s = 0; s < tgsm_layouts_.size(); ++s) {
    if (tgsm_layouts_[s])
      group.tgsm[s].assign(tgsm_layouts_[s]->words, Value{});
  }
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const std::array<uint32_t, 3> gid = {g % case_.groups[0],
                                       g / case_.groups[0] % case_.groups[1],
                                       g / case_.groups[0] / case_.groups[1]};
  // Spec 1.9: vThreadID = vThreadGroupID * group size + vThreadIDInGroup.
  const std::array<uint32_t, 3> base = {gid[0] * group_size_[0],
                                        gid[1] * group_size_[1],
                                        gid[2] * group_size_[2]};
  // vThreadIDInGroup counts x fastest: counted up here, thread by thread,
  // rather than divided out of k; its flattened form is k itself.
  std::array<uint32_t, 3> tid = {0, 0, 0};
  for (uint32_t k = 0; k < group.thread_count; ++k) {
    Thread& t = threads_[group.first_thread + k];
    t.id = group.first_thread + k;
    t.group = g;
    t.domain = g;
    t.active = true;
    t.iterations.clear();
    t.tid = tid;
    t.gid = gid;
    t.pc = 0;
    t.done = false;
    t.waiting = false;
    t.steps = 0;
    t.accesses = 0;
    const size_t live = canonical ? k : group.first_thread + k;
    const size_t regs = size_t{temps_} * 4;
    const size_t values = kSystemValueCount + regs;
    t.values = absl::MakeSpan(reg_pool_).subspan(live * values, values);
    t.regs = t.values.subspan(kSystemValueCount);
    // Temps start undefined. All bytes zero is Value{}: cleared as bytes,
    // in wide stores (a loop of Value{} stores its two fields one by one).
    static_assert(std::is_trivially_copyable_v<Value>);
    std::memset(static_cast<void*>(t.regs.data()), 0,
                t.regs.size() * sizeof(Value));
    Value* const sv = t.values.data();
    for (int c = 0; c < 3; ++c) {
      sv[SystemValueSlot(RegFile::kThreadID, c)] = Value::Of(base[c] + tid[c]);
      sv[SystemValueSlot(RegFile::kThreadGroupID, c)] = Value::Of(gid[c]);
      sv[SystemValueSlot(RegFile::kThreadIDInGroup, c)] = Value::Of(tid[c]);
    }
    sv[SystemValueSlot(RegFile::kThreadIDInGroupFlattened, 0)] = Value::Of(k);
    if (++tid[0] == group_size_[0]) {
      tid[0] = 0;
      if (++tid[1] == group_size_[1]) {
        tid[1] = 0;
        ++tid[2];
      }
    }
    t.xregs.resize(xsizes_.size());
    for (size_t x = 0; x < xsizes_.size(); ++x) {
      t.xregs[x].assign(size_t{xsizes_[x]} * 4, Value{});
    }
    t.occurrences = absl::MakeSpan(occurrence_pool_)
                        .subspan(live * atomic_count_, atomic_count_);
    std::fill(t.occurrences.begin(), t.occurrences.end(), 0u);
  }
}

isa::Outcome Execution::TakeOutcome() {
  outcome_.uavs.reserve(uavs_.size());
  for (uint32_t slot = 0; slot < uavs_.size(); ++slot) {
    if (!uavs_[slot]) continue;
    const Uav& u = *uavs_[slot];
    // Poison left its mark in the words themselves (Poison, StoreWord).
    const bool all_undefined = chaos_;
    isa::UavState s;
    s.slot = slot;
    s.words.reserve(u.words.size());
    s.defined.reserve(u.words.size());
    for (const Value& v : u.words) {
      uint32_t one;
      const absl::Span<const uint32_t> values =
          v.set && !all_undefined ? sets_.Elements(v, one)
                                  : absl::Span<const uint32_t>();
      if (!values.empty()) {
        // One of a few; the word holds the one this run left.
        s.choices.push_back(
            {static_cast<uint32_t>(s.words.size()),
             std::vector<uint32_t>(values.begin(), values.end())});
      }
      s.words.push_back(v.bits);
      s.defined.push_back(v.defined && !all_undefined);
    }
    if (u.counter) {
      s.counter = u.counter->bits;
      s.counter_defined = u.counter->defined && !chaos_;
    }
    outcome_.uavs.push_back(std::move(s));
  }
  if (chaos_) {
    outcome_.message = kChaosMessage;
    for (auto& e : outcome_.trace) e.returned.reset();
  }
  outcome_.has_trace = true;
  return std::move(outcome_);
}

}  // namespace atomfuzz::oracle

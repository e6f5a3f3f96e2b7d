#include "isa/spelling.h"

#include <utility>

namespace atomfuzz::isa {
namespace {

template <typename E, size_t N>
std::optional<E> Lookup(const std::pair<E, absl::string_view> (&table)[N],
                        absl::string_view name) {
  for (const auto& [value, spelling] : table) {
    if (spelling == name) return value;
  }
  return std::nullopt;
}

template <typename E, size_t N>
absl::string_view NameOf(const std::pair<E, absl::string_view> (&table)[N],
                         E value) {
  for (const auto& [v, spelling] : table) {
    if (v == value) return spelling;
  }
  return "?";
}

constexpr std::pair<Dim, absl::string_view> kDims[] = {
    {Dim::kBuffer, "buffer"},
    {Dim::kTexture1D, "texture1d"},
    {Dim::kTexture1DArray, "texture1darray"},
    {Dim::kTexture2D, "texture2d"},
    {Dim::kTexture2DArray, "texture2darray"},
    {Dim::kTexture3D, "texture3d"},
    {Dim::kRawBuffer, "raw_buffer"},
    {Dim::kStructuredBuffer, "structured_buffer"},
};

constexpr std::pair<ReturnType, absl::string_view> kTypes[] = {
    {ReturnType::kUnorm, "unorm"}, {ReturnType::kSnorm, "snorm"},
    {ReturnType::kSint, "sint"},   {ReturnType::kUint, "uint"},
    {ReturnType::kFloat, "float"}, {ReturnType::kMixed, "mixed"},
};

constexpr std::pair<GlobalFlag, absl::string_view> kGlobalFlags[] = {
    {kRefactoringAllowed, "refactoringAllowed"},
    {kEnableDoublePrecisionFloatOps, "enableDoublePrecisionFloatOps"},
    {kForceEarlyDepthStencil, "forceEarlyDepthStencil"},
    {kEnableRawAndStructuredBuffers, "enableRawAndStructuredBuffers"},
    {kSkipOptimization, "skipOptimization"},
    {kEnableMinimumPrecision, "enableMinimumPrecision"},
    {kEnable11_1DoubleExtensions, "enable11_1DoubleExtensions"},
    {kEnable11_1ShaderExtensions, "enable11_1ShaderExtensions"},
};

constexpr std::pair<RegFile, absl::string_view> kSystemValues[] = {
    {RegFile::kThreadID, "vThreadID"},
    {RegFile::kThreadGroupID, "vThreadGroupID"},
    {RegFile::kThreadIDInGroup, "vThreadIDInGroup"},
    {RegFile::kThreadIDInGroupFlattened, "vThreadIDInGroupFlattened"},
    {RegFile::kInputCoverageMask, "vCoverage"},
};

// fxc's words for the interpolation modes (docs/pixel-stage.md P.2).
constexpr std::pair<Interpolation, absl::string_view> kInterpolations[] = {
    {Interpolation::kConstant, "constant"},
    {Interpolation::kLinear, "linear"},
    {Interpolation::kLinearCentroid, "linear centroid"},
    {Interpolation::kLinearNoPerspective, "linear noperspective"},
    {Interpolation::kLinearNoPerspectiveCentroid,
     "linear noperspective centroid"},
    {Interpolation::kLinearSample, "linear sample"},
    {Interpolation::kLinearNoPerspectiveSample, "linear noperspective sample"},
};

constexpr std::pair<InputName, absl::string_view> kInputNames[] = {
    {InputName::kPosition, "position"},
    {InputName::kPrimitiveId, "primitive_id"},
    {InputName::kSampleIndex, "sampleIndex"},
};

}  // namespace

absl::string_view DimName(Dim dim) { return NameOf(kDims, dim); }
std::optional<Dim> DimFromName(absl::string_view name) {
  return Lookup(kDims, name);
}

absl::string_view ReturnTypeName(ReturnType t) { return NameOf(kTypes, t); }
std::optional<ReturnType> ReturnTypeFromName(absl::string_view name) {
  if (name == "int") return ReturnType::kSint;  // vkd3d's spelling
  return Lookup(kTypes, name);
}

absl::string_view GlobalFlagName(GlobalFlag flag) {
  return NameOf(kGlobalFlags, flag);
}
std::optional<GlobalFlag> GlobalFlagFromName(absl::string_view name) {
  return Lookup(kGlobalFlags, name);
}

std::string SyncMnemonic(uint8_t flags) {
  std::string m = "sync";
  const bool group = flags & kSyncUavGroup, global = flags & kSyncUavGlobal;
  if (group && global) {
    m += "_sat_uglobal";  // fxc's only spelling of bits 13+14 (E-32)
  } else if (global) {
    m += "_uglobal";
  } else if (group) {
    m += "_ugroup";
  }
  if (flags & kSyncTgsm) m += "_g";
  if (flags & kSyncThreads) m += "_t";
  return m;
}

std::optional<uint8_t> SyncFlagsFromSuffix(absl::string_view s) {
  // Fixed order: [_sat] [_uglobal|_ugroup] [_g] [_t] (spec 3.3).
  uint8_t flags = 0;
  auto take = [&s](absl::string_view part) {
    if (s.substr(0, part.size()) != part) return false;
    if (s.size() > part.size() && s[part.size()] != '_') return false;
    s.remove_prefix(part.size());
    return true;
  };
  // fxc prints the ugroup bit (13) as _sat, since it doubles as saturate.
  if (take("_sat")) flags |= kSyncUavGroup;
  if (take("_uglobal")) {
    flags |= kSyncUavGlobal;
  } else if (take("_ugroup")) {
    flags |= kSyncUavGroup;
  }
  if (take("_g")) flags |= kSyncTgsm;
  if (take("_t")) flags |= kSyncThreads;
  if (!s.empty()) return std::nullopt;
  return flags;
}

std::optional<RegFile> SystemValueFromName(absl::string_view name) {
  return Lookup(kSystemValues, name);
}

absl::string_view InterpolationName(Interpolation mode) {
  return NameOf(kInterpolations, mode);
}
std::optional<Interpolation> InterpolationFromName(absl::string_view words) {
  return Lookup(kInterpolations, words);
}

absl::string_view InputNameSpelling(uint32_t name) {
  for (const auto& [v, spelling] : kInputNames) {
    if (static_cast<uint32_t>(v) == name) return spelling;
  }
  return "";
}
std::optional<InputName> InputNameFromSpelling(absl::string_view word) {
  return Lookup(kInputNames, word);
}

char ComponentLetter(int c) { return "xyzw"[c & 3]; }

int ComponentFromLetter(char c) {
  switch (c) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    case 'w': return 3;
    default: return -1;
  }
}

}  // namespace atomfuzz::isa

#include "isa/program.h"

namespace atomfuzz::isa {

absl::string_view StagePrefix(Stage stage) {
  return stage == Stage::kPixel ? "ps" : "cs";
}

int TypedAddressWidth(Dim dim) {
  switch (dim) {
    case Dim::kBuffer:
    case Dim::kTexture1D: return 1;
    case Dim::kTexture1DArray:
    case Dim::kTexture2D: return 2;
    case Dim::kTexture2DArray:
    case Dim::kTexture3D: return 3;
    default: return 0;
  }
}

}  // namespace atomfuzz::isa

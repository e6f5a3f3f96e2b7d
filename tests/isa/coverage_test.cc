// Which memory kind each declaration names: the columns of the coverage
// matrix and of a campaign's features.
#include "isa/coverage.h"

#include "gtest/gtest.h"
#include "isa/assembler.h"

namespace atomfuzz::isa {
namespace {

Program Declarations() {
  absl::StatusOr<Program> p = Assemble(
      "cs_5_0\n"
      "dcl_uav_raw u0\n"
      "dcl_uav_structured u1, 8\n"
      "dcl_uav_typed_texture2darray (uint,uint,uint,uint) u2\n"
      "dcl_tgsm_raw g0, 16\n"
      "dcl_tgsm_structured g1, 4, 2\n"
      "dcl_temps 1\n"
      "dcl_thread_group 1, 1, 1\n"
      "ret\n",
      "declarations.asm");
  EXPECT_TRUE(p.ok()) << p.status();
  return *p;
}

TEST(DeclaredKind, NamesTheKindOfEachMemoryDeclarationAndNothingElse) {
  const Program p = Declarations();
  ASSERT_EQ(p.instructions.size(), 8u);
  EXPECT_EQ(DeclaredKind(p.instructions[0]), TargetKind::kUavRaw);
  EXPECT_EQ(DeclaredKind(p.instructions[1]), TargetKind::kUavStructured);
  EXPECT_EQ(DeclaredKind(p.instructions[2]), TargetKind::kUavTexture2DArray);
  EXPECT_EQ(DeclaredKind(p.instructions[3]), TargetKind::kTgsmRaw);
  EXPECT_EQ(DeclaredKind(p.instructions[4]), TargetKind::kTgsmStructured);
  for (size_t i = 5; i < p.instructions.size(); ++i) {
    EXPECT_EQ(DeclaredKind(p.instructions[i]), std::nullopt) << i;
  }
}

TEST(DeclaredKinds, MapsEachDeclaredSlot) {
  const auto kinds = DeclaredKinds(Declarations());
  ASSERT_EQ(kinds.size(), 5u);
  EXPECT_EQ(kinds.at({RegFile::kUav, 2}), TargetKind::kUavTexture2DArray);
  EXPECT_EQ(kinds.at({RegFile::kTgsm, 1}), TargetKind::kTgsmStructured);
}

}  // namespace
}  // namespace atomfuzz::isa

// The shared-memory counters on a GPU: a kernel whose counts are known reads back exactly;
// and the line-by-line view, whose lines and table are checked without a GPU.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "common/counters/smem_access_probe.hpp"
#include "common/counters/smem_counters.hpp"
#include "common/counters/source_counters.hpp"
#include "common/cuda/tests/test_kernels.hpp"
#include "grader/harness/catch.hpp"
#include "grader/harness/feedback.hpp"

TEST_CASE("shared-memory counters read a known kernel exactly", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  const gpu::CounterAvailability& available = gpu::counters_available();
  if (!available.available) GRADER_SKIP("counters not available: " + available.reason);
  // One warp, a conflict-free store then a 32-way load (column of float[32][32]).
  const gpu::SmemCounters c = gpu::measure_smem_counters(test_kernels::launch_column_read);
  CHECK(c.store_instructions == 1);
  CHECK(c.store_wavefronts == 1);
  CHECK(c.load_instructions == 1);
  CHECK(c.load_wavefronts == 32);
  CHECK(c.load_conflicts == 31);
  CHECK(c.ldsm_instructions == 0);
}

TEST_CASE("global traffic counters read known kernels exactly", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  // A coalesced read and a store of 32 floats 128 bytes apart: 4 and 32 sectors.
  const gpu::GlobalTraffic strided = gpu::measure_global_traffic(test_kernels::launch_strided_copy);
  CHECK(strided.load_requests == 1);
  CHECK(strided.load_sectors == 4);
  CHECK(strided.store_requests == 1);
  CHECK(strided.store_sectors == 32);
  // The column read's kernel: no global load, one coalesced store of 32 floats.
  const gpu::GlobalTraffic column = gpu::measure_global_traffic(test_kernels::launch_column_read);
  CHECK(column.load_requests == 0);
  CHECK(column.store_requests == 1);
  CHECK(column.store_sectors == 4);
  // The shared-memory counters still read after a global session (the two alternate).
  CHECK(gpu::measure_smem_counters(test_kernels::launch_column_read).load_wavefronts == 32);
}

TEST_CASE("shared-memory counters refuse a callback that launches two kernels", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  CHECK_THROWS_WITH(gpu::measure_smem_counters([] {
                      test_kernels::launch_column_read();
                      test_kernels::launch_column_read();
                    }),
                    GRADER_CONTAINS("expected exactly one kernel launch"));
}

TEST_CASE("shared-memory counters of many launches in one session, in order", "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  // Three warp requests of known cost: 32-way, 1 wavefront, and a 16-byte store (4, no conflict).
  std::vector<smem::WarpRequest> requests;
  requests.push_back(
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 128 * t; }));
  requests.push_back(
      smem::WarpRequest::from_lanes(4, smem::Op::kLoad, [](int t) { return 4 * t; }));
  requests.push_back(
      smem::WarpRequest::from_lanes(16, smem::Op::kStore, [](int t) { return 16 * t; }));
  const std::vector<gpu::MeasuredAccess> m = gpu::measure_warp_requests(requests, 48 * 1024);
  REQUIRE(m.size() == 3);
  CHECK(m[0].wavefronts == 32);
  CHECK(m[0].conflicts == 31);
  CHECK(m[1].wavefronts == 1);
  CHECK(m[2].wavefronts == 4);
  CHECK(m[2].conflicts == 0);
  // A callback that launches one kernel too many is refused, naming the counts.
  CHECK_THROWS_WITH(gpu::measure_smem_counters_each(2,
                                                    [](int i) {
                                                      test_kernels::launch_column_read();
                                                      if (i == 1)
                                                        test_kernels::launch_column_read();
                                                    }),
                    GRADER_CONTAINS("expected 2 kernel launches to profile, saw 3"));
}

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The mangled name of the test kernel that holds `part`, from the cubin's string table.
std::string kernel_name(const std::string& cubin, const std::string& part) {
  for (std::size_t at = cubin.find(part); at != std::string::npos; at = cubin.find(part, at + 1)) {
    const std::size_t start = cubin.rfind('\0', at) + 1;
    const std::string name = cubin.substr(start, cubin.find('\0', at) - start);
    if (name.rfind("_Z", 0) == 0) return name;
  }
  return "";
}

std::string folder_of(const std::string& path) {
  return path.substr(0, path.rfind('/'));
}

// The 1-based number of the first line of `path` that holds `text`.
int line_holding(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find(text) != std::string::npos) return number;
  }
  return 0;
}

// The column read's two shared accesses, placed on the lines of test_kernels.cu.
struct ColumnRead {
  std::string file;
  int store_line = 0;
  int load_line = 0;
};

ColumnRead column_read_lines() {
  const std::string cubin = file_bytes(WORKBOOK_TEST_KERNELS ".cubin");
  REQUIRE(!cubin.empty());
  const std::string name = kernel_name(cubin, "column_read_kernel");
  REQUIRE(!name.empty());
  ColumnRead read;
  std::set<int> lines;
  for (std::uint32_t pc = 0; pc < 4096; pc += 8) {
    if (const auto place = gpu::source_place(cubin, name, pc)) {
      read.file = place->file;
      lines.insert(place->line);
    }
  }
  REQUIRE(read.file.size() > 15);
  CHECK(read.file.substr(read.file.size() - 15) == "test_kernels.cu");
  read.store_line = line_holding(read.file, "st.volatile.shared.f32");
  read.load_line = line_holding(read.file, "ld.volatile.shared.f32");
  CHECK(lines.count(read.store_line) == 1);
  CHECK(lines.count(read.load_line) == 1);
  // Nothing is placed in a function the cubin does not hold, nor from no cubin.
  CHECK_FALSE(gpu::source_place(cubin, "no_such_kernel", 0).has_value());
  CHECK_FALSE(gpu::source_place("", name, 0).has_value());
  return read;
}

gpu::InstructionCount counted(const std::string& op, double wavefronts, const std::string& file,
                              int line, std::uint32_t pc) {
  gpu::InstructionCount c;
  c.function = "column_read_kernel";
  c.op = op;
  c.pc_offset = pc;
  c.requests = 1;
  c.wavefronts = wavefronts;
  c.ideal_wavefronts = 1;
  c.file = file;
  c.line = line;
  return c;
}

}  // namespace

TEST_CASE("line by line: a -lineinfo cubin places each shared access on its line",
          "[host][counters]") {
  const ColumnRead read = column_read_lines();
  CHECK(read.load_line == read.store_line + 2);
  // The same kernel as this program embeds it (the in-process graders' case): its cubin is
  // found in the program itself and places the load on the same line.
  bool found = false;
  for (const std::string& cubin : gpu::cubins_in(file_bytes("/proc/self/exe"))) {
    const std::string name = kernel_name(cubin, "column_read_kernel");
    if (name.empty()) continue;
    for (std::uint32_t pc = 0; pc < 4096 && !found; pc += 16) {
      const auto place = gpu::source_place(cubin, name, pc);
      found = place && place->line == read.load_line;
    }
  }
  CHECK(found);
  CHECK(gpu::cubins_in("no ELF here").empty());
  // Each image whole, its last header table too (the program headers, after the section
  // headers): the CRC by which the cubin that ran is found covers every byte of it.
  const std::string whole = file_bytes(WORKBOOK_TEST_KERNELS ".cubin");
  const std::vector<std::string> in_fatbin =
      gpu::cubins_in(file_bytes(WORKBOOK_TEST_KERNELS ".fatbin"));
  CHECK(std::count(in_fatbin.begin(), in_fatbin.end(), whole) == 1);
}

TEST_CASE("line by line: the table puts the model's figure beside the measured one",
          "[host][counters]") {
  const ColumnRead read = column_read_lines();
  const std::string agreed =
      gpu::shared_lines_table({counted("store", 1, read.file, read.store_line, 16),
                               counted("load", 32, read.file, read.load_line, 32)},
                              {folder_of(read.file)});
  INFO(agreed);
  CHECK_THAT(agreed, GRADER_CONTAINS("test_kernels.cu:" + std::to_string(read.load_line)));
  CHECK_THAT(agreed, GRADER_CONTAINS("32.00x the ideal"));
  CHECK_THAT(agreed, GRADER_CONTAINS("ld.volatile.shared.f32"));
  CHECK_THAT(agreed, !GRADER_CONTAINS("the model says otherwise"));
  // The model's figures (1 and 32) stand in the model column.
  CHECK_THAT(agreed, GRADER_CONTAINS("1.00   1.00      1"));
  CHECK_THAT(agreed, GRADER_CONTAINS("32.00   1.00     32"));
  // A count the comment's request does not explain is marked; an instruction without a line
  // is listed by its offset.
  gpu::InstructionCount unplaced = counted("load", 2, "", 0, 48);
  const std::string differs = gpu::shared_lines_table(
      {counted("load", 16, read.file, read.load_line, 32), unplaced}, {folder_of(read.file)});
  INFO(differs);
  CHECK_THAT(differs, GRADER_CONTAINS("the model says otherwise"));
  CHECK_THAT(differs, GRADER_CONTAINS("(line unknown, offset 48)"));
  CHECK_THAT(gpu::shared_lines_table({}, {}), GRADER_CONTAINS("no shared-memory instruction"));
  // A file outside the readable folders (a #line may name any file) is neither printed nor
  // read for its comments: the line is named alone.
  const std::string unread = gpu::shared_lines_table(
      {counted("load", 32, read.file, read.load_line, 32)}, {"/nonexistent"});
  INFO(unread);
  CHECK_THAT(unread, GRADER_CONTAINS("test_kernels.cu:" + std::to_string(read.load_line)));
  CHECK_THAT(unread, !GRADER_CONTAINS("ld.volatile.shared.f32"));
  CHECK_THAT(unread, GRADER_CONTAINS("32.00   1.00      -"));
  // A name longer than the column widens it: it never runs into the access kind.
  const std::string wide = gpu::shared_lines_table(
      {counted("load", 32, "/x/ch06_wrong_kernel_ignores_padding.inc", 91, 32)}, {"/nonexistent"});
  CHECK_THAT(wide, GRADER_CONTAINS("ch06_wrong_kernel_ignores_padding.inc:91  load"));
}

TEST_CASE("line by line: a bank model comment that is no request is named", "[host][counters]") {
  const std::string path = "line_by_line_comment.cu";
  {
    std::ofstream out(path);
    out << "tile[t] = v;  // bank model: --store 't*'\n"
        << "w = tile[t];  // bank model: 't*4\n"
        << "// bank model: --width 3 't*4'\n"
        << "v = tile[t];\n";
  }
  const std::string table =
      gpu::shared_lines_table({counted("store", 1, path, 1, 0), counted("load", 1, path, 2, 8),
                               counted("load", 1, path, 4, 16)},
                              {"."});
  std::remove(path.c_str());
  INFO(table);
  CHECK_THAT(table, GRADER_CONTAINS("line_by_line_comment.cu:1: its `bank model:` comment is not "
                                    "a request"));
  CHECK_THAT(table, GRADER_CONTAINS("line_by_line_comment.cu:2: its `bank model:` comment is not "
                                    "a request: a quote (') is not closed"));
  CHECK_THAT(table, GRADER_CONTAINS("line_by_line_comment.cu:4: its `bank model:` comment"));
}

TEST_CASE("line by line: a known kernel's instructions read back on their lines",
          "[gpu][counters]") {
  GPU_CHECKS_NEED_LIVE_CONTEXT();
  if (!gpu::counters_available().available) GRADER_SKIP("counters not available");
  const ColumnRead read = column_read_lines();
  std::string why;
  const std::vector<gpu::InstructionCount> counts = gpu::measure_instruction_counts(
      test_kernels::launch_column_read, WORKBOOK_TEST_KERNELS ".fatbin", &why);
  CHECK(why == "");
  REQUIRE(counts.size() == 2);
  CHECK(counts[0].op == "store");
  CHECK(counts[0].requests == 1);
  CHECK(counts[0].wavefronts == 1);
  CHECK(counts[0].line == read.store_line);
  CHECK(counts[1].op == "load");
  CHECK(counts[1].requests == 1);
  CHECK(counts[1].wavefronts == 32);
  CHECK(counts[1].ideal_wavefronts == 1);
  CHECK(counts[1].line == read.load_line);
  const std::string table = gpu::shared_lines_table(counts, {folder_of(read.file)});
  INFO(table);
  CHECK_THAT(table, !GRADER_CONTAINS("the model says otherwise"));
}

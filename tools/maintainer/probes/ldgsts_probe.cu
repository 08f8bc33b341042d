// The probe behind tools/maintainer/measurements/h200/cp-async-probe.tsv: one warp, one
// cp.async per active lane (shared and global offsets from the host), one launch per request.
// Build: nvcc -O2 -arch=sm_90a ldgsts_probe.cu; run under ncu --csv --metrics
// smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum ./a.out cases.tsv (the
// cases are written to cases.tsv in launch order).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

template <int W, bool CG>
__global__ void ldgsts_kernel(const long long* so, const long long* go, const unsigned char* src) {
  extern __shared__ __align__(1024) unsigned char sh[];
  const long long s = so[threadIdx.x], g = go[threadIdx.x];
  if (s >= 0) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(sh + s));
    const unsigned char* p = src + g;
    if constexpr (CG) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a), "l"(p) : "memory");
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(a), "l"(p), "n"(W)
                   : "memory");
    }
  }
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

struct Case {
  std::string name;
  int width;
  bool cg;
  std::vector<long long> s, g;
};

static std::vector<Case> cases;
static void add(std::string name, int w, bool cg, std::vector<long long> s,
                std::vector<long long> g) {
  cases.push_back({name, w, cg, s, g});
}

int main(int argc, char** argv) {
  auto L = [](auto f) {
    std::vector<long long> v(32);
    for (int t = 0; t < 32; ++t) v[t] = f(t);
    return v;
  };
  const long long K = 8192;  // a global row pitch
  std::vector<std::pair<std::string, std::vector<long long>>> G = {
      {"g_contig", L([](int t) { return 16LL * t; })},
      {"g_rows128", L([&](int t) { return (t / 8) * K + 16LL * (t % 8); })},
      {"g_rows64", L([&](int t) { return (t / 4) * K + 16LL * (t % 4); })},
      {"g_rows32", L([&](int t) { return (t / 2) * K + 16LL * (t % 2); })},
      {"g_scatter", L([&](int t) { return t * K; })},
      {"g_same", L([](int) { return 0LL; })},
  };
  auto sw = [](long long a, long long mask) { return a ^ ((a >> 3) & mask); };
  std::mt19937 rng(7);
  std::vector<long long> perm(32);
  for (int t = 0; t < 32; ++t) perm[t] = t;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<long long> rnd(32);
  for (int t = 0; t < 32; ++t) rnd[t] = 16LL * (rng() % 256);
  std::vector<std::pair<std::string, std::vector<long long>>> S = {
      {"s_contig", L([](int t) { return 16LL * t; })},
      {"s_pad144", L([](int t) { return (t / 8) * 144LL + 16 * (t % 8); })},
      {"s_sw128", L([&](int t) { return sw((t / 8) * 128LL + 16 * (t % 8), 0x70); })},
      {"s_sw64", L([&](int t) { return sw(16LL * t, 0x30); })},
      {"s_sw32", L([&](int t) { return sw(16LL * t, 0x10); })},
      {"s_pad80", L([](int t) { return (t / 4) * 80LL + 16 * (t % 4); })},
      {"s_pad48", L([](int t) { return (t / 2) * 48LL + 16 * (t % 2); })},
      {"s_col128", L([](int t) { return 128LL * t; })},
      {"s_col144", L([](int t) { return 144LL * t; })},
      {"s_stride32", L([](int t) { return 32LL * t; })},
      {"s_perm512", L([&](int t) { return 16 * perm[t]; })},
      {"s_rnd4k", rnd},
      {"s_same", L([](int) { return 0LL; })},
      {"s_rowswap", L([](int t) { return 16LL * (t ^ 8); })},
      {"s_reverse", L([](int t) { return 16LL * (31 - t); })},
      {"s_quad_rot", L([](int t) { return (t / 8) * 128LL + 16 * ((t + 1) % 8); })},
      {"s_2lines", L([](int t) { return (t / 16) * 1024LL + 16 * (t % 16); })},
      {"s_8lines_2ch", L([](int t) { return (t / 4) * 256LL + 16 * (t % 4); })},
  };
  for (auto& g : G)
    for (auto& s : S) add(s.first + "." + g.first, 16, true, s.second, g.second);
  // cp.async.ca, 16 bytes, a few
  for (int gi : {0, 1})
    for (int si : {0, 1, 2, 7})
      add("ca16." + S[si].first + "." + G[gi].first, 16, false, S[si].second, G[gi].second);
  // 4- and 8-byte cp.async.ca
  for (int w : {4, 8}) {
    add("ca" + std::to_string(w) + ".contig", w, false, L([&](int t) { return (long long)w * t; }),
        L([&](int t) { return (long long)w * t; }));
    add("ca" + std::to_string(w) + ".s_col128.gcontig", w, false,
        L([&](int t) { return 128LL * t; }), L([&](int t) { return (long long)w * t; }));
    add("ca" + std::to_string(w) + ".s_stride2.gcontig", w, false,
        L([&](int t) { return 2LL * w * t; }), L([&](int t) { return (long long)w * t; }));
    add("ca" + std::to_string(w) + ".contig.gscatter", w, false,
        L([&](int t) { return (long long)w * t; }), L([&](int t) { return t * K; }));
    add("ca" + std::to_string(w) + ".s_col136.gcontig", w, false,
        L([&](int t) { return 136LL * t; }), L([&](int t) { return (long long)w * t; }));
  }
  // inactive lanes
  add("inact.half.s_contig.g_contig", 16, true, L([](int t) { return t < 16 ? 16LL * t : -1; }),
      L([](int t) { return 16LL * t; }));
  add("inact.odd.s_contig.g_contig", 16, true, L([](int t) { return t % 2 ? 16LL * t : -1; }),
      L([](int t) { return 16LL * t; }));
  add("inact.q0.s_col128.g_contig", 16, true, L([](int t) { return t < 8 ? 128LL * t : -1; }),
      L([](int t) { return 16LL * t; }));
  add("inact.one.g_contig", 16, true, L([](int t) { return t == 5 ? 80LL : -1; }),
      L([](int t) { return 16LL * t; }));
  add("inact.q13.s_pad144.g_rows128", 16, true,
      L([](int t) { return (t / 8) % 2 ? (t / 8) * 144LL + 16 * (t % 8) : -1; }),
      L([&](int t) { return (t / 8) * K + 16LL * (t % 8); }));
  // random: random shared chunks within 4 KiB, global either contiguous-permuted or random rows
  for (int n = 0; n < 40; ++n) {
    std::vector<long long> s(32), g(32);
    const int kind = n % 4;
    for (int t = 0; t < 32; ++t) {
      s[t] = 16LL * (rng() % 256);
      if (kind == 0)
        g[t] = 16LL * t;
      else if (kind == 1)
        g[t] = (rng() % 64) * K + 16LL * (rng() % 8);
      else if (kind == 2)
        g[t] = 16LL * (rng() % 64);  // within 1 KiB
      else
        g[t] = (t / 8) * K + 16LL * (t % 8);
    }
    if (n >= 32)
      for (int t = 0; t < 32; ++t)
        if (rng() % 3 == 0) s[t] = -1;
    add("rnd" + std::to_string(n) + "_g" + std::to_string(kind), 16, true, s, g);
  }
  // 2-D tile fills as the chapter's GEMM makes them: rows r0 = 4 warp, many shared pitches
  for (int pitch : {128, 144, 160, 192, 256, 272, 528}) {
    add("fill128.pitch" + std::to_string(pitch), 16, true,
        L([&](int t) { return (t / 8) * (long long)pitch + 16 * (t % 8); }),
        L([&](int t) { return (t / 8) * K + 16LL * (t % 8); }));
  }
  for (int pitch : {64, 80, 96, 128, 144}) {
    add("fill64.pitch" + std::to_string(pitch), 16, true,
        L([&](int t) { return (t / 4) * (long long)pitch + 16 * (t % 4); }),
        L([&](int t) { return (t / 4) * K + 16LL * (t % 4); }));
  }

  for (int off : {16, 32, 64, 112}) {
    add("rows128.off" + std::to_string(off), 16, true,
        L([&](int t) { return (t / 8) * 256LL + off + 16 * (t % 8); }), G[1].second);
  }
  add("rows128.transposed", 16, true, L([](int t) { return (t % 8) * 128LL + 16 * (t / 8); }),
      G[1].second);
  add("rows128.transposed_sw", 16, true,
      L([&](int t) { return sw((t % 8) * 128LL + 16 * (t / 8), 0x70); }), G[1].second);
  add("rows128.halfline", 16, true, L([](int t) { return (t / 4) * 128LL + 16 * (t % 4); }),
      G[1].second);
  add("rows128.two_per_bankquad", 16, true,
      L([](int t) { return (t / 8) * 256LL + 16 * ((t % 8) / 2) + 128 * (t % 2); }), G[1].second);
  add("contig.rev_lines", 16, true, L([](int t) { return (3 - t / 8) * 128LL + 16 * (t % 8); }),
      G[1].second);
  add("g_contig.sw128_rows4", 16, true, L([&](int t) { return sw(16LL * t, 0x70); }), G[0].second);
  for (int q = 1; q <= 8; q *= 2) {
    add("g_lines" + std::to_string(32 / q) + ".s_contig", 16, true,
        L([](int t) { return 16LL * t; }), L([&](int t) { return (t / q) * K + 16LL * (t % q); }));
    add("g_lines" + std::to_string(32 / q) + ".s_col128", 16, true,
        L([](int t) { return 128LL * t; }), L([&](int t) { return (t / q) * K + 16LL * (t % q); }));
  }
  const int n = static_cast<int>(cases.size());
  std::vector<long long> hs(32 * n), hg(32 * n);
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < 32; ++t) {
      hs[32 * i + t] = cases[i].s[t];
      hg[32 * i + t] = cases[i].g[t];
    }
  long long *ds, *dg;
  unsigned char* src;
  cudaMalloc(&ds, hs.size() * 8);
  cudaMalloc(&dg, hg.size() * 8);
  cudaMalloc(&src, 64 * K + 4096);
  cudaMemset(src, 1, 64 * K + 4096);
  cudaMemcpy(ds, hs.data(), hs.size() * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dg, hg.data(), hg.size() * 8, cudaMemcpyHostToDevice);
  FILE* f = fopen(argc > 1 ? argv[1] : "cases.tsv", "w");
  for (int i = 0; i < n; ++i) {
    const Case& c = cases[i];
    fprintf(f, "%d\t%s\t%d\t%s\t", i, c.name.c_str(), c.width, c.cg ? "cg" : "ca");
    for (int t = 0; t < 32; ++t) fprintf(f, "%lld%c", c.s[t], t == 31 ? '\t' : ' ');
    for (int t = 0; t < 32; ++t) fprintf(f, "%lld%c", c.g[t], t == 31 ? '\n' : ' ');
  }
  fclose(f);
  for (int i = 0; i < n; ++i) {
    const Case& c = cases[i];
    auto k = c.cg           ? ldgsts_kernel<16, true>
             : c.width == 4 ? ldgsts_kernel<4, false>
             : c.width == 8 ? ldgsts_kernel<8, false>
                            : ldgsts_kernel<16, false>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192);
    k<<<1, 32, 8192>>>(ds + 32 * i, dg + 32 * i, src);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%d cases, %s\n", n, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

/// @file device_buffer.hpp
/// @brief An owning, move-only array in device memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/cuda/cuda_check.hpp"

namespace gpu {

/// `count` elements of T in device memory, freed when the buffer goes out of scope.
template <typename T>
class DeviceBuffer {
 public:
  /// Allocates `count` elements (uninitialised).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    GPU_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  /// Allocates and copies `host` to the device.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { cudaFree(data_); }  // An error here (lost context) is reported elsewhere.
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// Takes over `other`'s memory; `other` is left empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  /// Swaps memory with `other`, which frees this buffer's old memory when it goes.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }

  T* get() const { return data_; }                          ///< Device pointer.
  std::size_t size() const { return count_; }               ///< Element count.
  std::size_t bytes() const { return count_ * sizeof(T); }  ///< Size in bytes.

  /// Copies `host` (exactly size() elements) to the device.
  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    GPU_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  /// Copies the whole buffer to a new host vector.
  std::vector<T> download() const {
    std::vector<T> host(count_);
    GPU_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Sets every byte to `byte` (poison an output before a kernel writes it).
  void fill_bytes(unsigned char byte) { GPU_CHECK(cudaMemset(data_, byte, bytes())); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gpu

// CUDA flavour: the whole program captured as one CUDA graph and replayed.
// One eager run on a side stream warms it up (cuBLAS handles, workspaces,
// the allocator), then a run is captured there, as torch.cuda.graph does;
// replays and eager runs are timed with CUDA events on the same stream. An
// op that needs the host (a sync, data-dependent shapes) makes the capture
// fail: the interpreter's error names the node, and the capture is ended.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <algorithm>

#include "engine/runtime/numerics.h"
#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  if (auto trace = line.find("Exception raised from"); trace != std::string::npos) line.resize(trace);
  return line;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// GPU time of `body` on `stream`, `times` times (milliseconds each).
template <class F>
std::vector<double> time_on(cudaStream_t stream, int times, F&& body) {
  std::vector<double> ms;
  cudaEvent_t a = nullptr, b = nullptr;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < times; ++i) {
    cudaEventRecord(a, stream);
    body();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

// After a failed capture: end it, so the stream and the allocator are usable again.
void abandon_capture(cudaStream_t stream, c10::DeviceIndex device, decltype(at::cuda::graph_pool_handle()) pool) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
    cudaGraph_t g = nullptr;
    cudaStreamEndCapture(stream, &g);
    if (g) cudaGraphDestroy(g);
  }
  (void)cudaGetLastError();
  // The pool's blocks stay reserved (CUDAGraph's own reset may release the
  // pool; releasing it here too would free it twice).
  c10::cuda::CUDACachingAllocator::endAllocateToPool(device, pool);
}

}  // namespace

CudaGraphReport capture_cuda_graph(Interpreter& interp, const std::vector<c10::IValue>& inputs, int replays,
                                   const std::vector<c10::IValue>& eager_outputs, bool compare_outputs) {
  CudaGraphReport r;
  r.replays = replays;
  const c10::DeviceIndex device = interp.device().has_index() ? interp.device().index() : 0;
  c10::cuda::CUDAGuard on_device(device);
  cudaDeviceSynchronize();
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(false, device);
  c10::cuda::CUDAStreamGuard on_side(side);
  try {
    interp.run(inputs);  // warm-up on the capture stream
  } catch (const std::exception& e) {
    r.why = "the warm-up run before capture failed: " + first_line(e.what());
    return r;
  }
  side.synchronize();

  at::cuda::CUDAGraph graph;
  const auto pool = at::cuda::graph_pool_handle();
  std::vector<c10::IValue> static_outputs;
  try {
    graph.capture_begin(pool);
    static_outputs = interp.run(inputs);
    graph.capture_end();
  } catch (const std::exception& e) {
    abandon_capture(side.stream(), device, pool);
    r.why = "capture failed: " + first_line(e.what());
    return r;
  }
  r.captured = true;
  try {
    graph.replay();  // the first replay uploads the graph: keep it out of the times
    side.synchronize();
    if (compare_outputs && static_outputs.size() == eager_outputs.size()) {
      bool same = true;
      for (size_t i = 0; i < static_outputs.size(); ++i)
        same = same && compare_values("", static_outputs[i], eager_outputs[i]).close;
      r.replay_matches_eager = same;
    }
    r.replay_ms = median(time_on(side.stream(), replays, [&] { graph.replay(); }));
    r.eager_ms = median(time_on(side.stream(), replays, [&] { interp.run(inputs); }));
  } catch (const std::exception& e) {
    r.captured = false;
    r.why = "replay failed: " + first_line(e.what());
  }
  return r;
}

}  // namespace exportlens::runtime

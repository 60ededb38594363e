# Sourced by setup.sh and build.sh: which LibTorch flavour this machine builds
# against, and where its venv and build folder are.
#   EXPORTLENS_TORCH=cpu|cuda   chooses; unset: cuda when an NVIDIA driver answers
#                               (nvidia-smi lists a GPU), else cpu.
# Each flavour has its own venv and build folder, so switching rebuilds nothing twice:
#   cpu   .venv       build/       torch==2.13.0+cpu
#   cuda  .venv-cuda  build-cuda/  torch==2.13.0 (the registry's default Linux wheel: CUDA 13)
# vision_venv holds torchvision and timm for the corpus' timm models: the registry's
# torchvision needs the registry's (CUDA) torch, so the cpu flavour has a second venv,
# .venv-vision, and the cuda flavour uses its own.
exportlens_flavour() {
  case "${EXPORTLENS_TORCH:-}" in
    cpu | cuda) echo "$EXPORTLENS_TORCH" ;;
    "")
      if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
        echo cuda
      else
        echo cpu
      fi
      ;;
    *)
      echo "EXPORTLENS_TORCH must be cpu or cuda, not '$EXPORTLENS_TORCH'" >&2
      return 2
      ;;
  esac
}

flavour=$(exportlens_flavour)
if [ "$flavour" = cuda ]; then
  flavour_venv="$repo/.venv-cuda"
  flavour_build="$repo/build-cuda"
  vision_venv="$flavour_venv"
else
  flavour_venv="$repo/.venv"
  flavour_build="$repo/build"
  vision_venv="$repo/.venv-vision"
fi

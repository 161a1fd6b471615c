# Finds LibTorch: a user's own through Torch_DIR, otherwise the one inside the venv's torch wheel
# (BERT_STUDIO_PYTHON -> torch.utils.cmake_prefix_path). Defines the interface target
# bert_studio::torch that carries torch's libraries, its ABI flags and, when torch was built with
# CUDA, BERT_STUDIO_WITH_CUDA so the engine compiles its CUDA memory statistics.

if(NOT Torch_DIR AND BERT_STUDIO_PYTHON)
    execute_process(
        COMMAND "${BERT_STUDIO_PYTHON}" -c "import torch.utils; print(torch.utils.cmake_prefix_path)"
        OUTPUT_VARIABLE torch_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE torch_prefix_status)
    if(NOT torch_prefix_status EQUAL 0)
        message(FATAL_ERROR "${BERT_STUDIO_PYTHON} cannot import torch: run scripts/setup.sh")
    endif()
    list(APPEND CMAKE_PREFIX_PATH "${torch_prefix}")
endif()

# A CUDA build of torch enables the CUDA language at configure time; no GPU is needed for that.
if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
# Naming the architectures silences "Automatic GPU detection failed" on machines without a GPU.
if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(TORCH_CUDA_ARCH_LIST "8.0;9.0")
endif()

# torch reads TORCH_CUDA_ARCH_LIST and warns when CMAKE_CUDA_ARCHITECTURES is set as well.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES OFF)
endif()
find_package(Torch 2.0 REQUIRED)

add_library(bert_studio_torch INTERFACE)
add_library(bert_studio::torch ALIAS bert_studio_torch)
target_link_libraries(bert_studio_torch INTERFACE ${TORCH_LIBRARIES})
# Some torch wheels (2.11 among them) export statically linked libstdc++ functions, such as
# std::filesystem::remove_all, as strong symbols (pytorch #133437). Loaded before libstdc++, they
# take our calls, and those copies crashed (SIGSEGV in remove_all under torch 2.11). libstdc++
# first among the programs' DT_NEEDED entries makes its own definitions win.
target_link_options(bert_studio_torch INTERFACE "LINKER:--push-state,--no-as-needed,-lstdc++,--pop-state")
# TORCH_CXX_FLAGS holds -D_GLIBCXX_USE_CXX11_ABI=N, which must agree with Qt's (Debian: 1).
separate_arguments(torch_cxx_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
target_compile_options(bert_studio_torch INTERFACE ${torch_cxx_flags})
# The wheel's libtorch_cuda finds NCCL, cuDNN, cuBLAS... in site-packages/nvidia/*/lib through its
# $ORIGIN runpath at run time; at link time ld needs those folders named, or it picks an older
# system copy (undefined ncclCommGrow and the like).
file(GLOB torch_wheel_nvidia_libs LIST_DIRECTORIES true "${TORCH_INSTALL_PREFIX}/../nvidia/*/lib")
foreach(dir IN LISTS torch_wheel_nvidia_libs)
    target_link_options(bert_studio_torch INTERFACE "LINKER:-rpath-link,${dir}")
endforeach()
if(TARGET c10_cuda)
    target_compile_definitions(bert_studio_torch INTERFACE BERT_STUDIO_WITH_CUDA=1)
    set(BERT_STUDIO_WITH_CUDA ON)
else()
    set(BERT_STUDIO_WITH_CUDA OFF)
endif()
# Data parallel on GPUs reduces with NCCL (core/distributed/Collective.cpp): on when torch has CUDA
# and nccl.h is found (the torch wheel's nvidia-nccl package ships it); Gloo serves otherwise.
option(BERT_STUDIO_NCCL "Data parallel on CUDA through NCCL (needs a CUDA torch and nccl.h)" ON)
set(BERT_STUDIO_WITH_NCCL OFF)
if(BERT_STUDIO_NCCL AND BERT_STUDIO_WITH_CUDA)
    find_path(BERT_STUDIO_NCCL_INCLUDE_DIR nccl.h
              HINTS "${TORCH_INSTALL_PREFIX}/../nvidia/nccl/include" /usr/local/cuda/include)
    if(BERT_STUDIO_NCCL_INCLUDE_DIR)
        target_include_directories(bert_studio_torch SYSTEM INTERFACE "${BERT_STUDIO_NCCL_INCLUDE_DIR}")
        target_compile_definitions(bert_studio_torch INTERFACE BERT_STUDIO_WITH_NCCL=1)
        set(BERT_STUDIO_WITH_NCCL ON)
    endif()
endif()
message(STATUS "NCCL for data parallel on CUDA: ${BERT_STUDIO_WITH_NCCL}")
message(STATUS "LibTorch ${Torch_VERSION} (CUDA support: ${BERT_STUDIO_WITH_CUDA}) flags: ${TORCH_CXX_FLAGS}")

# Installed programs find LibTorch, and the CUDA libraries it needs, in the bert-studio-runtime
# package (packaging/runtime_package.py) beside them: never in the build machine's venv. The
# build tree keeps CMake's build RUNPATH into the venv.
set(BERT_STUDIO_TORCH_RUNPATH "$ORIGIN/../lib/bert-studio")
# What packaging needs to know about the LibTorch it packs and links against.
set(BERT_STUDIO_TORCH_LIBRARY_DIRS "${TORCH_INSTALL_PREFIX}/lib" ${torch_wheel_nvidia_libs})

#!/usr/bin/env bash
# The distributed FFT on a GPU machine (issues 43 and 44): builds bfly with
# the carried Open MPI (.deps/debs, relocated with OPAL_PREFIX: nothing is
# installed), runs the distributed tests, and benchmarks.
#   bash scripts/gpu/distributed.sh build        configure and build (bfly, the MPI tests)
#   bash scripts/gpu/distributed.sh test [NPS]   tests: one GPU a rank (NCCL) on every GPU,
#                                                and 2 ranks sharing GPU 0 (host-staged MPI)
#   bash scripts/gpu/distributed.sh runs FILE    the runs FILE lists (scripts/gpu/distributed-44.txt);
#                                                a line's count "one": one process driving the GPUs
#                                                (--devices all unless the line names --devices)
#   bash scripts/gpu/distributed.sh one-process  the one-process tests (MultiDevicePlan): every GPU
#                                                (NCCL), then every part on cuda:0 (host copies)
#   bash scripts/gpu/distributed.sh bench [NPS]  bfly bench --distributed at each rank count
#                                                (default: 1 2 4 8 up to the GPUs), shapes
#                                                from BFLY_DIST_SHAPES, options from
#                                                BFLY_DIST_CONFIGS (';' between runs) and BFLY_DIST_ARGS
# Carry .deps/debs (scripts/gpu/fetch-debs.sh). NVLink multicast stays off
# (NCCL_NVLS_ENABLE=0: the machines' rule, KINDS.md).
source "$(dirname "$0")/device-env.sh"
mpi=$root/usr/lib/x86_64-linux-gnu/openmpi
export OPAL_PREFIX=$root/usr PMIX_INSTALL_PREFIX=$root/usr/lib/x86_64-linux-gnu/pmix2
export LD_LIBRARY_PATH=$mpi/lib:$LD_LIBRARY_PATH
# NCCL from the image's Python wheel (nvidia-nccl-cu13), where the system has none.
nccl=$(python3 -c "import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], 'lib'))" 2>/dev/null)
[ -n "$nccl" ] && export LD_LIBRARY_PATH=$nccl:$LD_LIBRARY_PATH
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none PMIX_MCA_pcompress_base_silence_warning=1
mpirun="$root/usr/bin/mpirun.openmpi -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x BFLY_CACHE_DIR"
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
bfly=build-gpu/apps/bfly/bfly

case "${1:-}" in
  build)
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/usr" \
      -DBFLY_VKFFT_INCLUDE_DIR="$root/usr/include" -DBFLY_BUILD_PYTHON=OFF -DBFLY_MPI=ON \
      -DMPI_CXX_COMPILER="$root/usr/bin/mpicxx.openmpi" -DMPIEXEC_EXECUTABLE="$root/usr/bin/mpirun.openmpi" \
      > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
    cmake --build build-gpu -j "$(nproc)" --target bfly_cli bfly_distributed_tests bfly_multi_device_tests > "$out/build.log" 2>&1 ||
      { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }
    echo "built; $gpus GPUs; NCCL at ${nccl:-the system path}"
    ;;
  test)
    status=0
    tests=build-gpu/tests/distributed/bfly_distributed_tests
    shift
    for np in ${*:-1 2 $gpus}; do
      [ "$np" -ge 1 ] || continue
      echo "== $np ranks, one GPU a rank"
      $mpirun -np "$np" $tests --gtest_brief=1 > "$out/test-np$np.log" 2>&1 || status=1
      grep -E "PASSED|FAILED|transport|error" "$out/test-np$np.log" | sort | uniq -c | head -12
    done
    [ $# -gt 0 ] && exit $status
    echo "== 2 ranks sharing cuda:0 (host-staged MPI)"
    $mpirun -np 2 -x BFLY_TEST_DEVICE=cuda:0 $tests --gtest_brief=1 > "$out/test-shared.log" 2>&1 || status=1
    grep -E "PASSED|FAILED" "$out/test-shared.log" | sort | uniq -c | head
    exit $status
    ;;
  one-process)
    status=0
    tests=build-gpu/tests/distributed/bfly_multi_device_tests
    for devices in all cuda:0; do
      echo "== one process, BFLY_TEST_DEVICES=$devices"
      BFLY_TEST_DEVICES=$devices $tests --gtest_brief=1 > "$out/test-one-process-${devices/:/}.log" 2>&1 || status=1
      grep -E "PASSED|FAILED|error" "$out/test-one-process-${devices/:/}.log" | sort | uniq -c | head -20
    done
    exit $status
    ;;
  bench)
    shift
    nps=${*:-$(for n in 1 2 4 8; do [ "$n" -le "$gpus" ] && echo $n; done)}
    shapes=${BFLY_DIST_SHAPES:-512x512x512 1024x1024x1024}
    IFS=';' read -r -a configs <<< "${BFLY_DIST_CONFIGS:---decomposition slabs;--decomposition pencils}"
    for np in $nps; do
      for args in "${configs[@]}"; do
        echo "== np $np $args"
        # shellcheck disable=SC2086
        $mpirun -np "$np" $bfly bench --distributed $args ${BFLY_DIST_ARGS:-} --json "$out/dist-np$np-${args// /_}.json" \
          $shapes 2>&1 | tee -a "$out/bench.log" | tail -8
      done
    done
    ;;
  runs)
    # A list of runs, one a line: the rank count, then bfly bench's
    # arguments ('#' starts a comment). Each run's JSON is run-<line>.json,
    # all in $OUT/dist-runs.tgz; the table rows in $OUT/runs.txt.
    status=0 line=0
    mkdir -p "$out/runs"
    while read -r np args; do
      line=$((line + 1))
      case "$np" in ''|'#'*) continue ;; esac
      if [ "$np" = one ]; then
        launch=""
        case " $args " in *" --devices "*) ;; *) args="--devices all $args" ;; esac
      else
        [ "$np" -le "$gpus" ] || { echo "skip (needs $np GPUs): $args" | tee -a "$out/runs.txt"; continue; }
        launch="$mpirun -np $np"
      fi
      echo "== np $np $args" >> "$out/runs.txt"
      # shellcheck disable=SC2086
      timeout 120 $launch $bfly bench --distributed $args --json "$out/runs/run-$line.json" \
        < /dev/null > "$out/runs/run-$line.log" 2>&1 || { status=1; tail -5 "$out/runs/run-$line.log" >> "$out/runs.txt"; }
      grep -A1 "^shape" "$out/runs/run-$line.log" | tail -n +2 >> "$out/runs.txt"
    done < "${2:?runs: name the list file}"
    tar -czf "$out/dist-runs.tgz" -C "$out" runs && rm -rf "$out/runs"
    cat "$out/runs.txt"
    exit $status
    ;;
  *)
    echo "usage: distributed.sh build | test | one-process | bench [RANK COUNTS] | runs FILE" >&2
    exit 2
    ;;
esac

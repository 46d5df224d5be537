; A loop region with many exits: a switch that leaves the loop in five
; places (three returns after a synchronous copy, which -O2 merges into one
; cudaMemcpy after the loop, two plain returns, a goto out of the loop) plus
; the loop's own exit.  The iteration is one region: it begins at the header
; and ends at the latch and at the top of every exit block, so that no copy
; and no return runs with launches still deferred.  That is with batch=0;
; batched (the default: the copies are outside the loop, so it is
; batchable), every exit block starts with region_exit instead, and the
; preheader enters the loop with n as the most iterations it runs.
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<batch=0>' -S %s -o - | FileCheck %s
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<batch=0>' -S %s -o - | grep -c 'call void @__pygraph_region_end(' | FileCheck %s --check-prefix=ENDS
; RUN: opt -load-pass-plugin %plugin -passes=pygraph -S %s -o - | FileCheck %s --check-prefix=BATCH
; RUN: opt -load-pass-plugin %plugin -passes=pygraph -S %s -o - | grep -c 'call void @__pygraph_region_exit(' | FileCheck %s --check-prefix=EXITS
; RUN: opt -load-pass-plugin %plugin -passes=pygraph -S %s -o - | opt -passes=verify -disable-output
; RUN: opt -load-pass-plugin %plugin -passes=pygraph %opt_remarks -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; The pass's options as pipeline parameters:
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<analyze-only>' %opt_remarks -S %s -o - 2>&1 | FileCheck %s --check-prefix=ANALYZE
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<min-launches=3;batch=0>' %opt_remarks -S %s -o - 2>&1 | FileCheck %s --check-prefix=MIN3
; RUN: not opt -load-pass-plugin %plugin '-passes=pygraph<bogus>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD

; CHECK-LABEL: define {{.*}}i32 @_Z10many_exitsPfS_PKii(
; CHECK:       phi i64
; CHECK-NEXT:  call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
; CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z16__device_stub__kPf,
; CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z17__device_stub__k2Pf,
; CHECK:       switch i32 [[SEL:%[0-9]+]], label %[[LATCH:[0-9]+]] [
; case 3 (its copy is the merged one)
; CHECK:       {{^[0-9]+}}:{{ +}}; preds = %{{[0-9]+$}}
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; the latch ends the iteration
; CHECK:       {{^}}[[LATCH]]:
; CHECK:       call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  br i1 %{{[0-9]+}}, label %.loopexit2, label %{{[0-9]+}}, {{.*}}!llvm.loop
; the loop's own exit and `goto out` (a dedicated exit block made by the pass)
; CHECK:       {{^}}.loopexit2:
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; cases 1 and 2, each an exit block of its own
; CHECK:       {{^[0-9]+}}:{{ +}}; preds = %{{[0-9]+$}}
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK:       {{^}}.loopexit:
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; the copies run after every path into them ended the region
; CHECK:       phi i64 [ 12, %{{[0-9]+}} ], [ 4, %{{[0-9]+}} ], [ 16, %{{[0-9]+}} ], [ 8, %.loopexit ]
; CHECK-NOT:   @__pygraph_region_begin
; CHECK:       call i32 @cudaMemcpy(
; cases 4 and 5
; CHECK:       {{^}}.loopexit1:
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NOT:   @__pygraph_region
; CHECK:       ret i32
; the region descriptor: one segment
; CHECK:       declare void @__pygraph_region_begin(ptr, i32)
;
; latch + 5 exit blocks
; ENDS: {{^6$}}
;
; BATCH:       @.pygraph.region = internal global {{.*}} { i32 4, i32 2, i32 1, i32 2, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
; BATCH-LABEL: define {{.*}}i32 @_Z10many_exitsPfS_PKii(
; BATCH:       [[N:%[0-9]+]] = zext nneg i32 %3 to i64
; BATCH-NEXT:  call void @__pygraph_region_loop_enter(ptr @.pygraph.region, i64 [[N]])
; BATCH-NEXT:  br label %[[HEADER:[0-9]+]]
; BATCH:       {{^}}[[HEADER]]:
; BATCH-NEXT:  phi i64
; BATCH-NEXT:  call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
; BATCH:       call void @__pygraph_region_end(ptr @.pygraph.region)
; BATCH-NEXT:  br i1 %{{[0-9]+}}, label %.loopexit2, label %[[HEADER]], {{.*}}!llvm.loop
; BATCH:       {{^}}.loopexit2:
; BATCH-NEXT:  call void @__pygraph_region_exit(ptr @.pygraph.region)
; BATCH-NOT:   call void @__pygraph_region_end(
; BATCH-DAG:   declare void @__pygraph_region_loop_enter(ptr, i64)
; BATCH-DAG:   declare void @__pygraph_region_exit(ptr)
; EXITS: {{^5$}}
;
; REMARK: remark: exits.cu:6:5: launch of 'k(float*)' grid=(1,1,1) block=(32,1,1)
; REMARK: remark: exits.cu:7:5: launch of 'k2(float*)'
; REMARK: remark: exits.cu:6:5: formed graph region in 'many_exits(float*, float*, int const*, int)': loop iteration (lines 5-17), 2 launch sites
;
; ANALYZE: would form graph region in 'many_exits(float*, float*, int const*, int)': loop iteration
; ANALYZE-NOT: @__pygraph_
;
; MIN3: launch of 'k(float*)' stays eager: only 2 launch sites at the start of the loop iteration before the next barrier; a graph region needs at least 3 (min-launches)
; MIN3-NOT: call void @__pygraph_region
;
; BAD: pygraph: unknown option 'bogus'; known: disable, analyze-only
;
; Source (exits.cu), made with
;   %cuda_host -O2 -gline-tables-only  -S -emit-llvm exits.cu
; (the !DIFile directory trimmed):
;   #include <cuda_runtime.h>
;   __global__ void k(float *p) {}
;   __global__ void k2(float *p) {}
;   int many_exits(float *p, float *h, const int *sel, int n) {
;     for (int i = 0; i < n; ++i) {
;       k<<<1, 32>>>(p);
;       k2<<<1, 32>>>(p);
;       switch (sel[i]) {
;       case 1: cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost); return 1;
;       case 2: cudaMemcpy(h, p, 8, cudaMemcpyDeviceToHost); return 2;
;       case 3: cudaMemcpy(h, p, 12, cudaMemcpyDeviceToHost); return 3;
;       case 4: return 4;
;       case 5: return 5;
;       case 6: goto out;
;       default: break;
;       }
;     }
;   out:
;     cudaMemcpy(h, p, 16, cudaMemcpyDeviceToHost);
;     return 0;
;   }

; ModuleID = 'exits.cu'
source_filename = "exits.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

@0 = private unnamed_addr constant [7 x i8] c"_Z1kPf\00", align 1
@1 = private unnamed_addr constant [8 x i8] c"_Z2k2Pf\00", align 1
@2 = private constant [22 x i8] c"not a real gpu binary\0A", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @2, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal unnamed_addr global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

; Function Attrs: mustprogress norecurse uwtable
define dso_local void @_Z16__device_stub__kPf(ptr noundef %0) #0 !dbg !14 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.dim3, align 8
  %4 = alloca %struct.dim3, align 8
  %5 = alloca i64, align 8
  %6 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8, !tbaa !17
  %7 = alloca ptr, align 16, !dbg !20
  store ptr %2, ptr %7, align 16, !dbg !20
  %8 = call i32 @__cudaPopCallConfiguration(ptr nonnull %3, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6), !dbg !20
  %9 = load i64, ptr %5, align 8, !dbg !20
  %10 = load ptr, ptr %6, align 8, !dbg !20
  %11 = load i64, ptr %3, align 8, !dbg !20
  %12 = getelementptr inbounds nuw i8, ptr %3, i64 8, !dbg !20
  %13 = load i32, ptr %12, align 8, !dbg !20
  %14 = load i64, ptr %4, align 8, !dbg !20
  %15 = getelementptr inbounds nuw i8, ptr %4, i64 8, !dbg !20
  %16 = load i32, ptr %15, align 8, !dbg !20
  %17 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPf, i64 %11, i32 %13, i64 %14, i32 %16, ptr noundef nonnull %7, i64 noundef %9, ptr noundef %10), !dbg !20
  ret void, !dbg !21
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr) local_unnamed_addr

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr) local_unnamed_addr

; Function Attrs: mustprogress norecurse uwtable
define dso_local void @_Z17__device_stub__k2Pf(ptr noundef %0) #0 !dbg !22 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.dim3, align 8
  %4 = alloca %struct.dim3, align 8
  %5 = alloca i64, align 8
  %6 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8, !tbaa !17
  %7 = alloca ptr, align 16, !dbg !23
  store ptr %2, ptr %7, align 16, !dbg !23
  %8 = call i32 @__cudaPopCallConfiguration(ptr nonnull %3, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6), !dbg !23
  %9 = load i64, ptr %5, align 8, !dbg !23
  %10 = load ptr, ptr %6, align 8, !dbg !23
  %11 = load i64, ptr %3, align 8, !dbg !23
  %12 = getelementptr inbounds nuw i8, ptr %3, i64 8, !dbg !23
  %13 = load i32, ptr %12, align 8, !dbg !23
  %14 = load i64, ptr %4, align 8, !dbg !23
  %15 = getelementptr inbounds nuw i8, ptr %4, i64 8, !dbg !23
  %16 = load i32, ptr %15, align 8, !dbg !23
  %17 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z17__device_stub__k2Pf, i64 %11, i32 %13, i64 %14, i32 %16, ptr noundef nonnull %7, i64 noundef %9, ptr noundef %10), !dbg !23
  ret void, !dbg !24
}

; Function Attrs: mustprogress uwtable
define dso_local noundef range(i32 0, 6) i32 @_Z10many_exitsPfS_PKii(ptr noundef %0, ptr noundef %1, ptr noundef readonly captures(none) %2, i32 noundef %3) local_unnamed_addr #1 !dbg !25 {
  %5 = alloca ptr, align 8
  %6 = alloca %struct.dim3, align 8
  %7 = alloca %struct.dim3, align 8
  %8 = alloca i64, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 16, !dbg !26
  %11 = alloca ptr, align 8
  %12 = alloca %struct.dim3, align 8
  %13 = alloca %struct.dim3, align 8
  %14 = alloca i64, align 8
  %15 = alloca ptr, align 8
  %16 = alloca ptr, align 16, !dbg !28
  %17 = icmp sgt i32 %3, 0, !dbg !30
  br i1 %17, label %18, label %56, !dbg !31

18:                                               ; preds = %4
  %19 = getelementptr inbounds nuw i8, ptr %12, i64 8
  %20 = getelementptr inbounds nuw i8, ptr %13, i64 8
  %21 = getelementptr inbounds nuw i8, ptr %6, i64 8
  %22 = getelementptr inbounds nuw i8, ptr %7, i64 8
  %23 = zext nneg i32 %3 to i64, !dbg !30
  br label %24, !dbg !31

24:                                               ; preds = %18, %53
  %25 = phi i64 [ 0, %18 ], [ %54, %53 ]
  %26 = call i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967328, i32 1, i64 noundef 0, ptr noundef null), !dbg !32
  %27 = icmp eq i32 %26, 0, !dbg !32
  br i1 %27, label %28, label %37, !dbg !33

28:                                               ; preds = %24
  call void @llvm.lifetime.start.p0(ptr nonnull %11)
  call void @llvm.lifetime.start.p0(ptr nonnull %12)
  call void @llvm.lifetime.start.p0(ptr nonnull %13)
  call void @llvm.lifetime.start.p0(ptr nonnull %14)
  call void @llvm.lifetime.start.p0(ptr nonnull %15)
  call void @llvm.lifetime.start.p0(ptr nonnull %16)
  store ptr %0, ptr %11, align 8, !tbaa !17
  store ptr %11, ptr %16, align 16, !dbg !28
  %29 = call i32 @__cudaPopCallConfiguration(ptr nonnull %12, ptr nonnull %13, ptr nonnull %14, ptr nonnull %15), !dbg !28
  %30 = load i64, ptr %14, align 8, !dbg !28
  %31 = load ptr, ptr %15, align 8, !dbg !28
  %32 = load i64, ptr %12, align 8, !dbg !28
  %33 = load i32, ptr %19, align 8, !dbg !28
  %34 = load i64, ptr %13, align 8, !dbg !28
  %35 = load i32, ptr %20, align 8, !dbg !28
  %36 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPf, i64 %32, i32 %33, i64 %34, i32 %35, ptr noundef nonnull %16, i64 noundef %30, ptr noundef %31), !dbg !28
  call void @llvm.lifetime.end.p0(ptr nonnull %11), !dbg !34
  call void @llvm.lifetime.end.p0(ptr nonnull %12), !dbg !34
  call void @llvm.lifetime.end.p0(ptr nonnull %13), !dbg !34
  call void @llvm.lifetime.end.p0(ptr nonnull %14), !dbg !34
  call void @llvm.lifetime.end.p0(ptr nonnull %15), !dbg !34
  call void @llvm.lifetime.end.p0(ptr nonnull %16), !dbg !34
  br label %37, !dbg !33

37:                                               ; preds = %28, %24
  %38 = call i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967328, i32 1, i64 noundef 0, ptr noundef null), !dbg !35
  %39 = icmp eq i32 %38, 0, !dbg !35
  br i1 %39, label %40, label %49, !dbg !36

40:                                               ; preds = %37
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  call void @llvm.lifetime.start.p0(ptr nonnull %10)
  store ptr %0, ptr %5, align 8, !tbaa !17
  store ptr %5, ptr %10, align 16, !dbg !26
  %41 = call i32 @__cudaPopCallConfiguration(ptr nonnull %6, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9), !dbg !26
  %42 = load i64, ptr %8, align 8, !dbg !26
  %43 = load ptr, ptr %9, align 8, !dbg !26
  %44 = load i64, ptr %6, align 8, !dbg !26
  %45 = load i32, ptr %21, align 8, !dbg !26
  %46 = load i64, ptr %7, align 8, !dbg !26
  %47 = load i32, ptr %22, align 8, !dbg !26
  %48 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z17__device_stub__k2Pf, i64 %44, i32 %45, i64 %46, i32 %47, ptr noundef nonnull %10, i64 noundef %42, ptr noundef %43), !dbg !26
  call void @llvm.lifetime.end.p0(ptr nonnull %5), !dbg !37
  call void @llvm.lifetime.end.p0(ptr nonnull %6), !dbg !37
  call void @llvm.lifetime.end.p0(ptr nonnull %7), !dbg !37
  call void @llvm.lifetime.end.p0(ptr nonnull %8), !dbg !37
  call void @llvm.lifetime.end.p0(ptr nonnull %9), !dbg !37
  call void @llvm.lifetime.end.p0(ptr nonnull %10), !dbg !37
  br label %49, !dbg !36

49:                                               ; preds = %40, %37
  %50 = getelementptr inbounds nuw i32, ptr %2, i64 %25, !dbg !38
  %51 = load i32, ptr %50, align 4, !dbg !38, !tbaa !10
  switch i32 %51, label %53 [
    i32 1, label %57
    i32 2, label %58
    i32 3, label %52
    i32 4, label %62
    i32 5, label %62
    i32 6, label %56
  ], !dbg !39

52:                                               ; preds = %49
  br label %58, !dbg !40

53:                                               ; preds = %49
  %54 = add nuw nsw i64 %25, 1, !dbg !41
  %55 = icmp eq i64 %54, %23, !dbg !30
  br i1 %55, label %56, label %24, !dbg !31, !llvm.loop !42

56:                                               ; preds = %53, %49, %4
  br label %58, !dbg !45

57:                                               ; preds = %49
  br label %58, !dbg !46

58:                                               ; preds = %49, %57, %56, %52
  %59 = phi i64 [ 12, %52 ], [ 4, %57 ], [ 16, %56 ], [ 8, %49 ]
  %60 = phi i32 [ %51, %52 ], [ %51, %57 ], [ 0, %56 ], [ %51, %49 ]
  %61 = call i32 @cudaMemcpy(ptr noundef %1, ptr noundef %0, i64 noundef %59, i32 noundef 2), !dbg !46
  br label %62, !dbg !47

62:                                               ; preds = %49, %49, %58
  %63 = phi i32 [ %60, %58 ], [ %51, %49 ], [ %51, %49 ], !dbg !46
  ret i32 %63, !dbg !47
}

declare !dbg !48 i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) local_unnamed_addr #2

declare !dbg !50 i32 @cudaMemcpy(ptr noundef, ptr noundef, i64 noundef, i32 noundef) local_unnamed_addr #2

declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr

declare ptr @__cudaRegisterFatBinary(ptr) local_unnamed_addr

define internal void @__cuda_module_ctor() {
  %1 = tail call ptr @__cudaRegisterFatBinary(ptr nonnull @__cuda_fatbin_wrapper)
  store ptr %1, ptr @__cuda_gpubin_handle, align 8
  %2 = tail call i32 @__cudaRegisterFunction(ptr %1, ptr nonnull @_Z16__device_stub__kPf, ptr nonnull @0, ptr nonnull @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %3 = tail call i32 @__cudaRegisterFunction(ptr %1, ptr nonnull @_Z17__device_stub__k2Pf, ptr nonnull @1, ptr nonnull @1, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  tail call void @__cudaRegisterFatBinaryEnd(ptr %1)
  %4 = tail call i32 @atexit(ptr nonnull @__cuda_module_dtor)
  ret void
}

declare void @__cudaRegisterFatBinaryEnd(ptr) local_unnamed_addr

declare void @__cudaUnregisterFatBinary(ptr) local_unnamed_addr

define internal void @__cuda_module_dtor() {
  %1 = load ptr, ptr @__cuda_gpubin_handle, align 8
  tail call void @__cudaUnregisterFatBinary(ptr %1)
  ret void
}

; Function Attrs: nofree
declare i32 @atexit(ptr) local_unnamed_addr #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #4

attributes #0 = { mustprogress norecurse uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5, !6}
!llvm.dbg.cu = !{!7}
!llvm.ident = !{!9}
!llvm.errno.tbaa = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 5}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 8, !"PIC Level", i32 2}
!5 = !{i32 7, !"PIE Level", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !8, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!8 = !DIFile(filename: "exits.cu", directory: ".", checksumkind: CSK_MD5, checksum: "f574fa519314c2be10a8cca51e768976")
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = distinct !DISubprogram(name: "k", scope: !8, file: !8, line: 2, type: !15, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!15 = !DISubroutineType(types: !16)
!16 = !{}
!17 = !{!18, !18, i64 0}
!18 = !{!"p1 float", !19, i64 0}
!19 = !{!"any pointer", !12, i64 0}
!20 = !DILocation(line: 2, column: 29, scope: !14)
!21 = !DILocation(line: 2, column: 30, scope: !14)
!22 = distinct !DISubprogram(name: "k2", scope: !8, file: !8, line: 3, type: !15, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!23 = !DILocation(line: 3, column: 30, scope: !22)
!24 = !DILocation(line: 3, column: 31, scope: !22)
!25 = distinct !DISubprogram(name: "many_exits", scope: !8, file: !8, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!26 = !DILocation(line: 3, column: 30, scope: !22, inlinedAt: !27)
!27 = distinct !DILocation(line: 7, column: 5, scope: !25)
!28 = !DILocation(line: 2, column: 29, scope: !14, inlinedAt: !29)
!29 = distinct !DILocation(line: 6, column: 5, scope: !25)
!30 = !DILocation(line: 5, column: 21, scope: !25)
!31 = !DILocation(line: 5, column: 3, scope: !25)
!32 = !DILocation(line: 6, column: 6, scope: !25)
!33 = !DILocation(line: 6, column: 5, scope: !25)
!34 = !DILocation(line: 2, column: 30, scope: !14, inlinedAt: !29)
!35 = !DILocation(line: 7, column: 7, scope: !25)
!36 = !DILocation(line: 7, column: 5, scope: !25)
!37 = !DILocation(line: 3, column: 31, scope: !22, inlinedAt: !27)
!38 = !DILocation(line: 8, column: 13, scope: !25)
!39 = !DILocation(line: 8, column: 5, scope: !25)
!40 = !DILocation(line: 11, column: 59, scope: !25)
!41 = !DILocation(line: 5, column: 26, scope: !25)
!42 = distinct !{!42, !31, !43, !44}
!43 = !DILocation(line: 17, column: 3, scope: !25)
!44 = !{!"llvm.loop.mustprogress"}
!45 = !DILocation(line: 20, column: 3, scope: !25)
!46 = !DILocation(line: 0, scope: !25)
!47 = !DILocation(line: 21, column: 1, scope: !25)
!48 = !DISubprogram(name: "__cudaPushCallConfiguration", scope: !49, file: !49, line: 516, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!49 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h", directory: "", checksumkind: CSK_MD5, checksum: "37772deb2ec63d05d760276cc5613321")
!50 = !DISubprogram(name: "cudaMemcpy", scope: !51, file: !51, line: 5957, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!51 = !DIFile(filename: "/usr/local/include/cuda_runtime_api.h", directory: "", checksumkind: CSK_MD5, checksum: "4095ce4711b3d0abc0d3fcbb88b0250e")

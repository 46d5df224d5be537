; A loop region in a function with C++ cleanups: every call in the loop is
; an invoke that unwinds to one landingpad (the Guard's destructor, then
; resume), and the barrier (copy_back, an unknown external) is an invoke too.
; The launches are rerouted as invokes, the region ends before the barrier
; invoke and at the latch, and the landingpad (an exit of the loop) ends it
; right after the landingpad instruction, before the cleanup runs.
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<across-files=0>' -S %s -o - | FileCheck %s
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<across-files=0>' %opt_remarks -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<across-files=0>' -S %s -o - | opt -passes=verify -disable-output

; CHECK-LABEL: define {{.*}}void @_Z1fPfS_i(
; CHECK-NOT:   @cudaLaunchKernel(
; CHECK:       {{^}}.loopexit:
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK:       call void @_ZN5GuardD1Ev(
; CHECK:       ret void
; CHECK:       call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
; CHECK-NEXT:  invoke i32 @__cudaPushCallConfiguration(
; CHECK-NEXT:  to label %{{[0-9]+}} unwind label %[[LPAD:[0-9]+]]
; CHECK:       invoke i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z16__device_stub__kPfi,
; CHECK-NEXT:  to label %{{[0-9]+}} unwind label %[[LPAD]]
; CHECK:       {{^}}[[LPAD]]:
; CHECK-NEXT:  landingpad { ptr, i32 }
; CHECK-NEXT:  cleanup
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  call void @_ZN5GuardD1Ev(
; CHECK:       resume { ptr, i32 }
; CHECK:       invoke i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z16__device_stub__kPfi,
; CHECK-NEXT:  to label %{{[0-9]+}} unwind label %[[LPAD]]
; CHECK:       invoke i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z16__device_stub__kPfi,
; CHECK-NEXT:  to label %{{[0-9]+}} unwind label %[[LPAD]]
; the barrier invoke: the region ends before it
; CHECK:       call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  invoke void @_Z9copy_backPfS_(
; CHECK-NEXT:  to label %[[AFTER:[0-9]+]] unwind label %[[LPAD]]
; after it, nothing is left to defer before the latch ends the iteration
; CHECK:       {{^}}[[AFTER]]:
; CHECK-NOT:   @__pygraph_region_begin
; CHECK:       call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  br i1 %{{[0-9]+}}, label %.loopexit, label %{{[0-9]+}}, {{.*}}!llvm.loop
; CHECK-NOT:   @cudaLaunchKernel(
; CHECK:       declare i32 @__pygraph_cudaLaunchKernel(

; REMARK: remark: invoke.cu:8:5: formed graph region in 'f(float*, float*, int)': loop iteration (lines 7-12), 3 launch sites
; REMARK-NOT: stays eager
;
; Source (invoke.cu), made with
;   %cuda_host -O2 -gline-tables-only -fexceptions -fcxx-exceptions -S -emit-llvm invoke.cu
; (the !DIFile directory trimmed):
;   #include <cuda_runtime.h>
;   __global__ void k(float *p, int i) {}
;   struct Guard { ~Guard(); };
;   void copy_back(float *h, float *p); // may throw
;   void f(float *p, float *h, int n) {
;     Guard g;
;     for (int t = 0; t < n; ++t) {
;       k<<<1, 1>>>(p, t);
;       k<<<1, 1>>>(p, t + 1);
;       k<<<1, 1>>>(p, t + 2);
;       copy_back(h, p);
;     }
;   }

; ModuleID = 'invoke.cu'
source_filename = "invoke.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }
%struct.Guard = type { i8 }

@0 = private unnamed_addr constant [8 x i8] c"_Z1kPfi\00", align 1
@1 = private constant [22 x i8] c"not a real gpu binary\0A", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @1, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal unnamed_addr global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

; Function Attrs: mustprogress norecurse uwtable
define dso_local void @_Z16__device_stub__kPfi(ptr noundef %0, i32 noundef %1) #0 !dbg !14 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca %struct.dim3, align 8
  %6 = alloca %struct.dim3, align 8
  %7 = alloca i64, align 8
  %8 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8, !tbaa !17
  store i32 %1, ptr %4, align 4, !tbaa !10
  %9 = alloca [2 x ptr], align 16, !dbg !20
  store ptr %3, ptr %9, align 16, !dbg !20
  %10 = getelementptr inbounds nuw i8, ptr %9, i64 8, !dbg !20
  store ptr %4, ptr %10, align 8, !dbg !20
  %11 = call i32 @__cudaPopCallConfiguration(ptr nonnull %5, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8), !dbg !20
  %12 = load i64, ptr %7, align 8, !dbg !20
  %13 = load ptr, ptr %8, align 8, !dbg !20
  %14 = load i64, ptr %5, align 8, !dbg !20
  %15 = getelementptr inbounds nuw i8, ptr %5, i64 8, !dbg !20
  %16 = load i32, ptr %15, align 8, !dbg !20
  %17 = load i64, ptr %6, align 8, !dbg !20
  %18 = getelementptr inbounds nuw i8, ptr %6, i64 8, !dbg !20
  %19 = load i32, ptr %18, align 8, !dbg !20
  %20 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPfi, i64 %14, i32 %16, i64 %17, i32 %19, ptr noundef nonnull %9, i64 noundef %12, ptr noundef %13), !dbg !20
  ret void, !dbg !21
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr) local_unnamed_addr

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr) local_unnamed_addr

; Function Attrs: mustprogress uwtable
define dso_local void @_Z1fPfS_i(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #1 personality ptr @__gxx_personality_v0 !dbg !22 {
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca %struct.dim3, align 8
  %7 = alloca %struct.dim3, align 8
  %8 = alloca i64, align 8
  %9 = alloca ptr, align 8
  %10 = alloca [2 x ptr], align 16, !dbg !23
  %11 = alloca ptr, align 8
  %12 = alloca i32, align 4
  %13 = alloca %struct.dim3, align 8
  %14 = alloca %struct.dim3, align 8
  %15 = alloca i64, align 8
  %16 = alloca ptr, align 8
  %17 = alloca [2 x ptr], align 16, !dbg !25
  %18 = alloca ptr, align 8
  %19 = alloca i32, align 4
  %20 = alloca %struct.dim3, align 8
  %21 = alloca %struct.dim3, align 8
  %22 = alloca i64, align 8
  %23 = alloca ptr, align 8
  %24 = alloca [2 x ptr], align 16, !dbg !27
  %25 = alloca %struct.Guard, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %25) #6, !dbg !29
  %26 = icmp sgt i32 %2, 0, !dbg !30
  br i1 %26, label %27, label %37, !dbg !31

27:                                               ; preds = %3
  %28 = getelementptr inbounds nuw i8, ptr %24, i64 8
  %29 = getelementptr inbounds nuw i8, ptr %20, i64 8
  %30 = getelementptr inbounds nuw i8, ptr %21, i64 8
  %31 = getelementptr inbounds nuw i8, ptr %17, i64 8
  %32 = getelementptr inbounds nuw i8, ptr %13, i64 8
  %33 = getelementptr inbounds nuw i8, ptr %14, i64 8
  %34 = getelementptr inbounds nuw i8, ptr %10, i64 8
  %35 = getelementptr inbounds nuw i8, ptr %6, i64 8
  %36 = getelementptr inbounds nuw i8, ptr %7, i64 8
  br label %38, !dbg !31

37:                                               ; preds = %89, %3
  call void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1) %25) #6, !dbg !32
  call void @llvm.lifetime.end.p0(ptr nonnull %25) #6, !dbg !32
  ret void, !dbg !32

38:                                               ; preds = %27, %89
  %39 = phi i32 [ 0, %27 ], [ %90, %89 ]
  %40 = invoke i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967297, i32 1, i64 noundef 0, ptr noundef null)
          to label %41 unwind label %54, !dbg !33

41:                                               ; preds = %38
  %42 = icmp eq i32 %40, 0, !dbg !33
  br i1 %42, label %43, label %56, !dbg !34

43:                                               ; preds = %41
  call void @llvm.lifetime.start.p0(ptr nonnull %18)
  call void @llvm.lifetime.start.p0(ptr nonnull %19)
  call void @llvm.lifetime.start.p0(ptr nonnull %20)
  call void @llvm.lifetime.start.p0(ptr nonnull %21)
  call void @llvm.lifetime.start.p0(ptr nonnull %22)
  call void @llvm.lifetime.start.p0(ptr nonnull %23)
  call void @llvm.lifetime.start.p0(ptr nonnull %24)
  store ptr %0, ptr %18, align 8, !tbaa !17
  store i32 %39, ptr %19, align 4, !tbaa !10
  store ptr %18, ptr %24, align 16, !dbg !27
  store ptr %19, ptr %28, align 8, !dbg !27
  %44 = invoke i32 @__cudaPopCallConfiguration(ptr nonnull %20, ptr nonnull %21, ptr nonnull %22, ptr nonnull %23)
          to label %45 unwind label %54, !dbg !27

45:                                               ; preds = %43
  %46 = load i64, ptr %22, align 8, !dbg !27
  %47 = load ptr, ptr %23, align 8, !dbg !27
  %48 = load i64, ptr %20, align 8, !dbg !27
  %49 = load i32, ptr %29, align 8, !dbg !27
  %50 = load i64, ptr %21, align 8, !dbg !27
  %51 = load i32, ptr %30, align 8, !dbg !27
  %52 = invoke noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPfi, i64 %48, i32 %49, i64 %50, i32 %51, ptr noundef nonnull %24, i64 noundef %46, ptr noundef %47)
          to label %53 unwind label %54, !dbg !27

53:                                               ; preds = %45
  call void @llvm.lifetime.end.p0(ptr nonnull %18), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %19), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %20), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %21), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %22), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %23), !dbg !35
  call void @llvm.lifetime.end.p0(ptr nonnull %24), !dbg !35
  br label %56, !dbg !35

54:                                               ; preds = %79, %76, %63, %60, %45, %43, %88, %72, %56, %38
  %55 = landingpad { ptr, i32 }
          cleanup, !dbg !32
  call void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1) %25) #6, !dbg !32
  call void @llvm.lifetime.end.p0(ptr nonnull %25) #6, !dbg !32
  resume { ptr, i32 } %55, !dbg !32

56:                                               ; preds = %53, %41
  %57 = invoke i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967297, i32 1, i64 noundef 0, ptr noundef null)
          to label %58 unwind label %54, !dbg !36

58:                                               ; preds = %56
  %59 = icmp eq i32 %57, 0, !dbg !36
  br i1 %59, label %60, label %72, !dbg !37

60:                                               ; preds = %58
  %61 = add nuw nsw i32 %39, 1, !dbg !38
  call void @llvm.lifetime.start.p0(ptr nonnull %11)
  call void @llvm.lifetime.start.p0(ptr nonnull %12)
  call void @llvm.lifetime.start.p0(ptr nonnull %13)
  call void @llvm.lifetime.start.p0(ptr nonnull %14)
  call void @llvm.lifetime.start.p0(ptr nonnull %15)
  call void @llvm.lifetime.start.p0(ptr nonnull %16)
  call void @llvm.lifetime.start.p0(ptr nonnull %17)
  store ptr %0, ptr %11, align 8, !tbaa !17
  store i32 %61, ptr %12, align 4, !tbaa !10
  store ptr %11, ptr %17, align 16, !dbg !25
  store ptr %12, ptr %31, align 8, !dbg !25
  %62 = invoke i32 @__cudaPopCallConfiguration(ptr nonnull %13, ptr nonnull %14, ptr nonnull %15, ptr nonnull %16)
          to label %63 unwind label %54, !dbg !25

63:                                               ; preds = %60
  %64 = load i64, ptr %15, align 8, !dbg !25
  %65 = load ptr, ptr %16, align 8, !dbg !25
  %66 = load i64, ptr %13, align 8, !dbg !25
  %67 = load i32, ptr %32, align 8, !dbg !25
  %68 = load i64, ptr %14, align 8, !dbg !25
  %69 = load i32, ptr %33, align 8, !dbg !25
  %70 = invoke noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPfi, i64 %66, i32 %67, i64 %68, i32 %69, ptr noundef nonnull %17, i64 noundef %64, ptr noundef %65)
          to label %71 unwind label %54, !dbg !25

71:                                               ; preds = %63
  call void @llvm.lifetime.end.p0(ptr nonnull %11), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %12), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %13), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %14), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %15), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %16), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %17), !dbg !39
  br label %72, !dbg !39

72:                                               ; preds = %71, %58
  %73 = invoke i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967297, i32 1, i64 noundef 0, ptr noundef null)
          to label %74 unwind label %54, !dbg !40

74:                                               ; preds = %72
  %75 = icmp eq i32 %73, 0, !dbg !40
  br i1 %75, label %76, label %88, !dbg !41

76:                                               ; preds = %74
  %77 = add nuw nsw i32 %39, 2, !dbg !42
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  call void @llvm.lifetime.start.p0(ptr nonnull %10)
  store ptr %0, ptr %4, align 8, !tbaa !17
  store i32 %77, ptr %5, align 4, !tbaa !10
  store ptr %4, ptr %10, align 16, !dbg !23
  store ptr %5, ptr %34, align 8, !dbg !23
  %78 = invoke i32 @__cudaPopCallConfiguration(ptr nonnull %6, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9)
          to label %79 unwind label %54, !dbg !23

79:                                               ; preds = %76
  %80 = load i64, ptr %8, align 8, !dbg !23
  %81 = load ptr, ptr %9, align 8, !dbg !23
  %82 = load i64, ptr %6, align 8, !dbg !23
  %83 = load i32, ptr %35, align 8, !dbg !23
  %84 = load i64, ptr %7, align 8, !dbg !23
  %85 = load i32, ptr %36, align 8, !dbg !23
  %86 = invoke noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPfi, i64 %82, i32 %83, i64 %84, i32 %85, ptr noundef nonnull %10, i64 noundef %80, ptr noundef %81)
          to label %87 unwind label %54, !dbg !23

87:                                               ; preds = %79
  call void @llvm.lifetime.end.p0(ptr nonnull %4), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %5), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %6), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %7), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %8), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %9), !dbg !43
  call void @llvm.lifetime.end.p0(ptr nonnull %10), !dbg !43
  br label %88, !dbg !43

88:                                               ; preds = %87, %74
  invoke void @_Z9copy_backPfS_(ptr noundef %1, ptr noundef %0)
          to label %89 unwind label %54, !dbg !44

89:                                               ; preds = %88
  %90 = add nuw nsw i32 %39, 1, !dbg !45
  %91 = icmp eq i32 %90, %2, !dbg !30
  br i1 %91, label %37, label %38, !dbg !31, !llvm.loop !46
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #2

declare !dbg !49 i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) local_unnamed_addr #3

declare i32 @__gxx_personality_v0(...)

declare !dbg !51 void @_Z9copy_backPfS_(ptr noundef, ptr noundef) local_unnamed_addr #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #2

; Function Attrs: nounwind
declare !dbg !52 void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1)) unnamed_addr #4

declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr

declare ptr @__cudaRegisterFatBinary(ptr) local_unnamed_addr

define internal void @__cuda_module_ctor() {
  %1 = tail call ptr @__cudaRegisterFatBinary(ptr nonnull @__cuda_fatbin_wrapper)
  store ptr %1, ptr @__cuda_gpubin_handle, align 8
  %2 = tail call i32 @__cudaRegisterFunction(ptr %1, ptr nonnull @_Z16__device_stub__kPfi, ptr nonnull @0, ptr nonnull @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  tail call void @__cudaRegisterFatBinaryEnd(ptr %1)
  %3 = tail call i32 @atexit(ptr nonnull @__cuda_module_dtor)
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
declare i32 @atexit(ptr) local_unnamed_addr #5

attributes #0 = { mustprogress norecurse uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree }
attributes #6 = { nounwind }

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
!8 = !DIFile(filename: "invoke.cu", directory: ".", checksumkind: CSK_MD5, checksum: "bc7c610fe340de12d824e1023405fb77")
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
!20 = !DILocation(line: 2, column: 36, scope: !14)
!21 = !DILocation(line: 2, column: 37, scope: !14)
!22 = distinct !DISubprogram(name: "f", scope: !8, file: !8, line: 5, type: !15, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!23 = !DILocation(line: 2, column: 36, scope: !14, inlinedAt: !24)
!24 = distinct !DILocation(line: 10, column: 5, scope: !22)
!25 = !DILocation(line: 2, column: 36, scope: !14, inlinedAt: !26)
!26 = distinct !DILocation(line: 9, column: 5, scope: !22)
!27 = !DILocation(line: 2, column: 36, scope: !14, inlinedAt: !28)
!28 = distinct !DILocation(line: 8, column: 5, scope: !22)
!29 = !DILocation(line: 6, column: 3, scope: !22)
!30 = !DILocation(line: 7, column: 21, scope: !22)
!31 = !DILocation(line: 7, column: 3, scope: !22)
!32 = !DILocation(line: 13, column: 1, scope: !22)
!33 = !DILocation(line: 8, column: 6, scope: !22)
!34 = !DILocation(line: 8, column: 5, scope: !22)
!35 = !DILocation(line: 2, column: 37, scope: !14, inlinedAt: !28)
!36 = !DILocation(line: 9, column: 6, scope: !22)
!37 = !DILocation(line: 9, column: 5, scope: !22)
!38 = !DILocation(line: 9, column: 22, scope: !22)
!39 = !DILocation(line: 2, column: 37, scope: !14, inlinedAt: !26)
!40 = !DILocation(line: 10, column: 6, scope: !22)
!41 = !DILocation(line: 10, column: 5, scope: !22)
!42 = !DILocation(line: 10, column: 22, scope: !22)
!43 = !DILocation(line: 2, column: 37, scope: !14, inlinedAt: !24)
!44 = !DILocation(line: 11, column: 5, scope: !22)
!45 = !DILocation(line: 7, column: 26, scope: !22)
!46 = distinct !{!46, !31, !47, !48}
!47 = !DILocation(line: 12, column: 3, scope: !22)
!48 = !{!"llvm.loop.mustprogress"}
!49 = !DISubprogram(name: "__cudaPushCallConfiguration", scope: !50, file: !50, line: 516, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!50 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h", directory: "", checksumkind: CSK_MD5, checksum: "37772deb2ec63d05d760276cc5613321")
!51 = !DISubprogram(name: "copy_back", scope: !8, file: !8, line: 4, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!52 = !DISubprogram(name: "~Guard", scope: !8, file: !8, line: 3, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)

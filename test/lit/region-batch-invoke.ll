; A batchable loop in a function with C++ cleanups: every call in the loop is
; an invoke unwinding to one landingpad outside the loop (the Guard's
; destructor, then resume).  The landingpad is an exit of the loop like the
; normal one: both start with __pygraph_region_exit (after the landingpad
; instruction), so unwinding out of the loop runs what a batch still defers
; before the cleanup.  note(), allowed as harmless, may throw: through an
; invoke that is fine, its unwind edge reaches an exit.
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<allow=note;across-files=0>' -S %s -o - | FileCheck %s
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<allow=note;across-files=0>' -S %s -o - | opt -passes=verify -disable-output
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<allow=note;across-files=0>' %opt_remarks -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; Not allowed, note() is an unknown external: a barrier, no batch.
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<across-files=0>' %opt_remarks -disable-output %s 2>&1 | FileCheck %s --check-prefix=BARRIER

; CHECK:       @.pygraph.region = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
; CHECK-LABEL: define {{.*}}void @_Z1fPfi(
; CHECK:       [[N:%[0-9]+]] = zext {{(nneg )?}}i32 %1 to i64
; CHECK-NEXT:  call void @__pygraph_region_loop_enter(ptr @.pygraph.region, i64 [[N]])
; CHECK-NEXT:  br label
; CHECK:       {{^}}.loopexit:
; CHECK-NEXT:  call void @__pygraph_region_exit(ptr @.pygraph.region)
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
; CHECK-NEXT:  call void @__pygraph_region_exit(ptr @.pygraph.region)
; CHECK-NEXT:  call void @_ZN5GuardD1Ev(
; CHECK-NEXT:  call void @llvm.lifetime.end
; CHECK-NEXT:  call void @__pygraph_throw_point()
; CHECK-NEXT:  resume { ptr, i32 }
; CHECK:       invoke void @_Z4notei(
; CHECK-NEXT:  to label %{{[0-9]+}} unwind label %[[LPAD]]
; CHECK:       call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  br i1 %{{[0-9]+}}, label %.loopexit, label %{{[0-9]+}}, {{.*}}!llvm.loop
; CHECK-NOT:   @__pygraph_region_end(
; CHECK:       {{^}$}}

; REMARK: remark: batch_invoke.cu:8:5: formed graph region in 'f(float*, int)': loop iteration (lines 7-10), 1 launch site
; REMARK: remark: batch_invoke.cu:8:5: batchable loop (lines 7-10): up to 32 iterations per graph
; REMARK-NOT: not batchable
; BARRIER: remark: batch_invoke.cu:9:5: loop (lines 7-10) not batchable: barrier in the loop (external call 'note(int)' at batch_invoke.cu:9, which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=note))
; BARRIER: remark: batch_invoke.cu:8:5: launch of 'k(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (external call 'note(int)' at batch_invoke.cu:9, which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=note)); a graph region needs at least 2 (min-launches) [external-call]{{$}}
;
; Source (batch_invoke.cu), made with
;   %cuda_host -O2 -gline-tables-only -fexceptions -fcxx-exceptions -S -emit-llvm batch_invoke.cu
; (the !DIFile directory trimmed):
;   #include <cuda_runtime.h>
;   __global__ void k(float *p, int i) {}
;   struct Guard { ~Guard(); };
;   void note(int t); // may throw
;   void f(float *p, int n) {
;     Guard g;
;     for (int t = 0; t < n; ++t) {
;       k<<<1, 1>>>(p, t);
;       note(t);
;     }
;   }

; ModuleID = 'batch_invoke.cu'
source_filename = "batch_invoke.cu"
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
define dso_local void @_Z1fPfi(ptr noundef %0, i32 noundef %1) local_unnamed_addr #1 personality ptr @__gxx_personality_v0 !dbg !22 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca %struct.dim3, align 8
  %6 = alloca %struct.dim3, align 8
  %7 = alloca i64, align 8
  %8 = alloca ptr, align 8
  %9 = alloca [2 x ptr], align 16, !dbg !23
  %10 = alloca %struct.Guard, align 1
  call void @llvm.lifetime.start.p0(ptr nonnull %10) #6, !dbg !25
  %11 = icmp sgt i32 %1, 0, !dbg !26
  br i1 %11, label %12, label %16, !dbg !27

12:                                               ; preds = %2
  %13 = getelementptr inbounds nuw i8, ptr %9, i64 8
  %14 = getelementptr inbounds nuw i8, ptr %5, i64 8
  %15 = getelementptr inbounds nuw i8, ptr %6, i64 8
  br label %17, !dbg !27

16:                                               ; preds = %36, %2
  call void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1) %10) #6, !dbg !28
  call void @llvm.lifetime.end.p0(ptr nonnull %10) #6, !dbg !28
  ret void, !dbg !28

17:                                               ; preds = %12, %36
  %18 = phi i32 [ 0, %12 ], [ %37, %36 ]
  %19 = invoke i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967297, i32 1, i64 noundef 0, ptr noundef null)
          to label %20 unwind label %33, !dbg !29

20:                                               ; preds = %17
  %21 = icmp eq i32 %19, 0, !dbg !29
  br i1 %21, label %22, label %35, !dbg !30

22:                                               ; preds = %20
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  store ptr %0, ptr %3, align 8, !tbaa !17
  store i32 %18, ptr %4, align 4, !tbaa !10
  store ptr %3, ptr %9, align 16, !dbg !23
  store ptr %4, ptr %13, align 8, !dbg !23
  %23 = invoke i32 @__cudaPopCallConfiguration(ptr nonnull %5, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8)
          to label %24 unwind label %33, !dbg !23

24:                                               ; preds = %22
  %25 = load i64, ptr %7, align 8, !dbg !23
  %26 = load ptr, ptr %8, align 8, !dbg !23
  %27 = load i64, ptr %5, align 8, !dbg !23
  %28 = load i32, ptr %14, align 8, !dbg !23
  %29 = load i64, ptr %6, align 8, !dbg !23
  %30 = load i32, ptr %15, align 8, !dbg !23
  %31 = invoke noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPfi, i64 %27, i32 %28, i64 %29, i32 %30, ptr noundef nonnull %9, i64 noundef %25, ptr noundef %26)
          to label %32 unwind label %33, !dbg !23

32:                                               ; preds = %24
  call void @llvm.lifetime.end.p0(ptr nonnull %3), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %4), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %5), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %6), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %7), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %8), !dbg !31
  call void @llvm.lifetime.end.p0(ptr nonnull %9), !dbg !31
  br label %35, !dbg !31

33:                                               ; preds = %24, %22, %35, %17
  %34 = landingpad { ptr, i32 }
          cleanup, !dbg !28
  call void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1) %10) #6, !dbg !28
  call void @llvm.lifetime.end.p0(ptr nonnull %10) #6, !dbg !28
  resume { ptr, i32 } %34, !dbg !28

35:                                               ; preds = %32, %20
  invoke void @_Z4notei(i32 noundef %18)
          to label %36 unwind label %33, !dbg !32

36:                                               ; preds = %35
  %37 = add nuw nsw i32 %18, 1, !dbg !33
  %38 = icmp eq i32 %37, %1, !dbg !26
  br i1 %38, label %16, label %17, !dbg !27, !llvm.loop !34
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #2

declare !dbg !37 i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) local_unnamed_addr #3

declare i32 @__gxx_personality_v0(...)

declare !dbg !39 void @_Z4notei(i32 noundef) local_unnamed_addr #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #2

; Function Attrs: nounwind
declare !dbg !40 void @_ZN5GuardD1Ev(ptr noundef nonnull align 1 dereferenceable(1)) unnamed_addr #4

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
!8 = !DIFile(filename: "batch_invoke.cu", directory: ".", checksumkind: CSK_MD5, checksum: "b24b3eaa42901e5547bb1cf1184b97f7")
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
!24 = distinct !DILocation(line: 8, column: 5, scope: !22)
!25 = !DILocation(line: 6, column: 3, scope: !22)
!26 = !DILocation(line: 7, column: 21, scope: !22)
!27 = !DILocation(line: 7, column: 3, scope: !22)
!28 = !DILocation(line: 11, column: 1, scope: !22)
!29 = !DILocation(line: 8, column: 6, scope: !22)
!30 = !DILocation(line: 8, column: 5, scope: !22)
!31 = !DILocation(line: 2, column: 37, scope: !14, inlinedAt: !24)
!32 = !DILocation(line: 9, column: 5, scope: !22)
!33 = !DILocation(line: 7, column: 26, scope: !22)
!34 = distinct !{!34, !27, !35, !36}
!35 = !DILocation(line: 10, column: 3, scope: !22)
!36 = !{!"llvm.loop.mustprogress"}
!37 = !DISubprogram(name: "__cudaPushCallConfiguration", scope: !38, file: !38, line: 516, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!38 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h", directory: "", checksumkind: CSK_MD5, checksum: "37772deb2ec63d05d760276cc5613321")
!39 = !DISubprogram(name: "note", scope: !8, file: !8, line: 4, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!40 = !DISubprogram(name: "~Guard", scope: !8, file: !8, line: 3, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)

; An irreducible loop (two entries: the top and, through `goto mid`, the
; middle): LoopInfo sees no loop, so there is no loop region and the
; launches belong to the function scope.  With straight-line runs on (the
; default) they form one straight-line segment, begun at the entry and ended
; at the return; each launch counts once, and the walk over the cycle ends.
; With straight-line=0 every launch stays eager: no call into the runtime.
; RUN: opt -load-pass-plugin %plugin -passes=pygraph -S %s -o - | FileCheck %s
; RUN: opt -load-pass-plugin %plugin -passes=pygraph %opt_remarks -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: opt -load-pass-plugin %plugin '-passes=pygraph<straight-line=0;across-files=0>' %opt_remarks -S %s -o - 2>&1 | FileCheck %s --check-prefix=NOSTRAIGHT

; CHECK-LABEL: define {{.*}}void @_Z1fPfii(
; CHECK-NEXT:  call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
; CHECK-NOT:   @__pygraph_region
; CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z16__device_stub__kPf,
; CHECK-NOT:   @__pygraph_region
; CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z17__device_stub__k2Pf,
; CHECK-NOT:   @__pygraph_region
; CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{.*}}, ptr @_Z17__device_stub__k2Pf,
; CHECK-NOT:   @__pygraph_region
; the back edge to the top stays inside the segment
; CHECK:       br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:  call void @__pygraph_region_end(ptr @.pygraph.region)
; CHECK-NEXT:  ret void
; CHECK-NOT:   @cudaLaunchKernel(
; CHECK:       declare void @__pygraph_region_begin(ptr, i32)

; REMARK: remark: irreducible.cu:9:3: formed graph region in 'f(float*, int, int)': straight-line run, 3 launch sites
; REMARK-NOT: loop iteration

; NOSTRAIGHT-DAG: remark: irreducible.cu:9:3: launch of 'k(float*)' stays eager: launch outside loops stays eager (straight-line=0)
; NOSTRAIGHT-DAG: remark: irreducible.cu:11:3: launch of 'k2(float*)' stays eager: launch outside loops stays eager (straight-line=0)
; NOSTRAIGHT-DAG: remark: irreducible.cu:12:3: launch of 'k2(float*)' stays eager: launch outside loops stays eager (straight-line=0)
; NOSTRAIGHT-NOT: call {{.*}}@__pygraph_
;
; Source (irreducible.cu), made with
;   %cuda_host -O2 -gline-tables-only  -S -emit-llvm irreducible.cu
; (the !DIFile directory trimmed):
;   #include <cuda_runtime.h>
;   __global__ void k(float *p) {}
;   __global__ void k2(float *p) {}
;   void f(float *p, int n, int start_mid) {
;     int i = 0;
;     if (start_mid)
;       goto mid;
;   top:
;     k<<<1, 32>>>(p);
;   mid:
;     k2<<<1, 32>>>(p);
;     k2<<<1, 32>>>(p);
;     if (++i < n)
;       goto top;
;   }

; ModuleID = 'irreducible.cu'
source_filename = "irreducible.cu"
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
define dso_local void @_Z1fPfii(ptr noundef %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #1 !dbg !25 {
  %4 = alloca ptr, align 8
  %5 = alloca %struct.dim3, align 8
  %6 = alloca %struct.dim3, align 8
  %7 = alloca i64, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 16, !dbg !26
  %10 = alloca ptr, align 8
  %11 = alloca %struct.dim3, align 8
  %12 = alloca %struct.dim3, align 8
  %13 = alloca i64, align 8
  %14 = alloca ptr, align 8
  %15 = alloca ptr, align 16, !dbg !28
  %16 = alloca ptr, align 8
  %17 = alloca %struct.dim3, align 8
  %18 = alloca %struct.dim3, align 8
  %19 = alloca i64, align 8
  %20 = alloca ptr, align 8
  %21 = alloca ptr, align 16, !dbg !30
  %22 = icmp eq i32 %2, 0, !dbg !32
  br i1 %22, label %23, label %38, !dbg !32

23:                                               ; preds = %67, %3
  %24 = phi i32 [ %68, %67 ], [ 0, %3 ], !dbg !33
  %25 = call i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967328, i32 1, i64 noundef 0, ptr noundef null), !dbg !34
  %26 = icmp eq i32 %25, 0, !dbg !34
  br i1 %26, label %27, label %38, !dbg !35

27:                                               ; preds = %23
  call void @llvm.lifetime.start.p0(ptr nonnull %16)
  call void @llvm.lifetime.start.p0(ptr nonnull %17)
  call void @llvm.lifetime.start.p0(ptr nonnull %18)
  call void @llvm.lifetime.start.p0(ptr nonnull %19)
  call void @llvm.lifetime.start.p0(ptr nonnull %20)
  call void @llvm.lifetime.start.p0(ptr nonnull %21)
  store ptr %0, ptr %16, align 8, !tbaa !17
  store ptr %16, ptr %21, align 16, !dbg !30
  %28 = call i32 @__cudaPopCallConfiguration(ptr nonnull %17, ptr nonnull %18, ptr nonnull %19, ptr nonnull %20), !dbg !30
  %29 = load i64, ptr %19, align 8, !dbg !30
  %30 = load ptr, ptr %20, align 8, !dbg !30
  %31 = load i64, ptr %17, align 8, !dbg !30
  %32 = getelementptr inbounds nuw i8, ptr %17, i64 8, !dbg !30
  %33 = load i32, ptr %32, align 8, !dbg !30
  %34 = load i64, ptr %18, align 8, !dbg !30
  %35 = getelementptr inbounds nuw i8, ptr %18, i64 8, !dbg !30
  %36 = load i32, ptr %35, align 8, !dbg !30
  %37 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z16__device_stub__kPf, i64 %31, i32 %33, i64 %34, i32 %36, ptr noundef nonnull %21, i64 noundef %29, ptr noundef %30), !dbg !30
  call void @llvm.lifetime.end.p0(ptr nonnull %16), !dbg !36
  call void @llvm.lifetime.end.p0(ptr nonnull %17), !dbg !36
  call void @llvm.lifetime.end.p0(ptr nonnull %18), !dbg !36
  call void @llvm.lifetime.end.p0(ptr nonnull %19), !dbg !36
  call void @llvm.lifetime.end.p0(ptr nonnull %20), !dbg !36
  call void @llvm.lifetime.end.p0(ptr nonnull %21), !dbg !36
  br label %38, !dbg !35

38:                                               ; preds = %23, %27, %3
  %39 = phi i32 [ 0, %3 ], [ %24, %27 ], [ %24, %23 ], !dbg !33
  %40 = call i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967328, i32 1, i64 noundef 0, ptr noundef null), !dbg !37
  %41 = icmp eq i32 %40, 0, !dbg !37
  br i1 %41, label %42, label %53, !dbg !38

42:                                               ; preds = %38
  call void @llvm.lifetime.start.p0(ptr nonnull %10)
  call void @llvm.lifetime.start.p0(ptr nonnull %11)
  call void @llvm.lifetime.start.p0(ptr nonnull %12)
  call void @llvm.lifetime.start.p0(ptr nonnull %13)
  call void @llvm.lifetime.start.p0(ptr nonnull %14)
  call void @llvm.lifetime.start.p0(ptr nonnull %15)
  store ptr %0, ptr %10, align 8, !tbaa !17
  store ptr %10, ptr %15, align 16, !dbg !28
  %43 = call i32 @__cudaPopCallConfiguration(ptr nonnull %11, ptr nonnull %12, ptr nonnull %13, ptr nonnull %14), !dbg !28
  %44 = load i64, ptr %13, align 8, !dbg !28
  %45 = load ptr, ptr %14, align 8, !dbg !28
  %46 = load i64, ptr %11, align 8, !dbg !28
  %47 = getelementptr inbounds nuw i8, ptr %11, i64 8, !dbg !28
  %48 = load i32, ptr %47, align 8, !dbg !28
  %49 = load i64, ptr %12, align 8, !dbg !28
  %50 = getelementptr inbounds nuw i8, ptr %12, i64 8, !dbg !28
  %51 = load i32, ptr %50, align 8, !dbg !28
  %52 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z17__device_stub__k2Pf, i64 %46, i32 %48, i64 %49, i32 %51, ptr noundef nonnull %15, i64 noundef %44, ptr noundef %45), !dbg !28
  call void @llvm.lifetime.end.p0(ptr nonnull %10), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %11), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %12), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %13), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %14), !dbg !39
  call void @llvm.lifetime.end.p0(ptr nonnull %15), !dbg !39
  br label %53, !dbg !38

53:                                               ; preds = %42, %38
  %54 = call i32 @__cudaPushCallConfiguration(i64 4294967297, i32 1, i64 4294967328, i32 1, i64 noundef 0, ptr noundef null), !dbg !40
  %55 = icmp eq i32 %54, 0, !dbg !40
  br i1 %55, label %56, label %67, !dbg !41

56:                                               ; preds = %53
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  store ptr %0, ptr %4, align 8, !tbaa !17
  store ptr %4, ptr %9, align 16, !dbg !26
  %57 = call i32 @__cudaPopCallConfiguration(ptr nonnull %5, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8), !dbg !26
  %58 = load i64, ptr %7, align 8, !dbg !26
  %59 = load ptr, ptr %8, align 8, !dbg !26
  %60 = load i64, ptr %5, align 8, !dbg !26
  %61 = getelementptr inbounds nuw i8, ptr %5, i64 8, !dbg !26
  %62 = load i32, ptr %61, align 8, !dbg !26
  %63 = load i64, ptr %6, align 8, !dbg !26
  %64 = getelementptr inbounds nuw i8, ptr %6, i64 8, !dbg !26
  %65 = load i32, ptr %64, align 8, !dbg !26
  %66 = call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z17__device_stub__k2Pf, i64 %60, i32 %62, i64 %63, i32 %65, ptr noundef nonnull %9, i64 noundef %58, ptr noundef %59), !dbg !26
  call void @llvm.lifetime.end.p0(ptr nonnull %4), !dbg !42
  call void @llvm.lifetime.end.p0(ptr nonnull %5), !dbg !42
  call void @llvm.lifetime.end.p0(ptr nonnull %6), !dbg !42
  call void @llvm.lifetime.end.p0(ptr nonnull %7), !dbg !42
  call void @llvm.lifetime.end.p0(ptr nonnull %8), !dbg !42
  call void @llvm.lifetime.end.p0(ptr nonnull %9), !dbg !42
  br label %67, !dbg !41

67:                                               ; preds = %56, %53
  %68 = add nsw i32 %39, 1, !dbg !43
  %69 = icmp slt i32 %68, %1, !dbg !44
  br i1 %69, label %23, label %70, !dbg !44

70:                                               ; preds = %67
  ret void, !dbg !45
}

declare !dbg !46 i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) local_unnamed_addr #2

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
!8 = !DIFile(filename: "irreducible.cu", directory: ".", checksumkind: CSK_MD5, checksum: "662ef9a9b32635fd02d2f91812c2cbfa")
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
!25 = distinct !DISubprogram(name: "f", scope: !8, file: !8, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!26 = !DILocation(line: 3, column: 30, scope: !22, inlinedAt: !27)
!27 = distinct !DILocation(line: 12, column: 3, scope: !25)
!28 = !DILocation(line: 3, column: 30, scope: !22, inlinedAt: !29)
!29 = distinct !DILocation(line: 11, column: 3, scope: !25)
!30 = !DILocation(line: 2, column: 29, scope: !14, inlinedAt: !31)
!31 = distinct !DILocation(line: 9, column: 3, scope: !25)
!32 = !DILocation(line: 6, column: 7, scope: !25)
!33 = !DILocation(line: 0, scope: !25)
!34 = !DILocation(line: 9, column: 4, scope: !25)
!35 = !DILocation(line: 9, column: 3, scope: !25)
!36 = !DILocation(line: 2, column: 30, scope: !14, inlinedAt: !31)
!37 = !DILocation(line: 11, column: 5, scope: !25)
!38 = !DILocation(line: 11, column: 3, scope: !25)
!39 = !DILocation(line: 3, column: 31, scope: !22, inlinedAt: !29)
!40 = !DILocation(line: 12, column: 5, scope: !25)
!41 = !DILocation(line: 12, column: 3, scope: !25)
!42 = !DILocation(line: 3, column: 31, scope: !22, inlinedAt: !27)
!43 = !DILocation(line: 13, column: 7, scope: !25)
!44 = !DILocation(line: 13, column: 11, scope: !25)
!45 = !DILocation(line: 15, column: 1, scope: !25)
!46 = !DISubprogram(name: "__cudaPushCallConfiguration", scope: !47, file: !47, line: 516, type: !15, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!47 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h", directory: "", checksumkind: CSK_MD5, checksum: "37772deb2ec63d05d760276cc5613321")

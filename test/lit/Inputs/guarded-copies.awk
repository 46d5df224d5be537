# Counts the calls of cudaMemcpy in an .ll file and those of them with no
# __pygraph_region_end (or, leaving a batchable loop, __pygraph_region_exit)
# before them in their basic block.
/^[^ ;].*:/ { guarded = 0 }
/__pygraph_region_(end|exit)\(/ { guarded = 1 }
/call .*@cudaMemcpy\(/ { total++; if (!guarded) bad++ }
END { printf "memcpys=%d unguarded=%d\n", total, bad }

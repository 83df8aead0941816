use super::*;

#[test]
fn parses_a_pointwise_program() {
    let k = FusedKernel::parse(
        "fused 1\ntensors 2 float32 float32 float32\nsizes ks0\nscalars\nreduction 0\n\
         let x0 int32 (remainder xindex ks0)\n\
         load tmp0 float32 0 xindex\nload tmp1 float32 1 x0\n\
         let tmp2 (maximum (add tmp0 tmp1) (const int32 0))\n\
         store 2 xindex tmp2\n",
    )
    .unwrap();
    assert_eq!(k.tensors.len(), 3);
    assert_eq!(k.inputs, 2);
    assert_eq!(k.sizes, 1);
    assert_eq!(k.body.len(), 5);
    match &k.body[3] {
        Stmt::Let { value, .. } => assert_eq!(value.dtype(), DType::F32),
        s => panic!("{s:?}"),
    }
}

#[test]
fn names_in_a_masked_block_stay_in_it() {
    let k = FusedKernel::parse(
        "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 0\n\
         let a (const float32 1.0)\n\
         masked m float32 (lt xindex 4)\nlet a (const int64 2)\nyield a a\n\
         store 1 xindex (add a m)\n",
    )
    .unwrap();
    match &k.body[2] {
        Stmt::Store { value, .. } => match value {
            Expr::Binary(_, a, _) => assert_eq!(**a, Expr::input(4, DType::F32)),
            e => panic!("{e:?}"),
        },
        s => panic!("{s:?}"),
    }
}

#[test]
fn parts_have_their_own_index_and_count() {
    let k = FusedKernel::parse(
        "fused 1\ntensors 0 float32\nsizes s0\nscalars\nreduction 0\n\
         part 3\nstore 0 xindex (cast float32 xnumel)\nend\n\
         part (add s0 1)\nstore 0 xindex (cast float32 xindex)\nend\n",
    )
    .unwrap();
    let [Stmt::Part {
        index: i0,
        numel_local: n0,
        ..
    }, Stmt::Part {
        index: i1, body, ..
    }] = &k.body[..]
    else {
        panic!("{:?}", k.body)
    };
    assert!(![XINDEX, XNUMEL].contains(i0) && *n0 != XNUMEL && i1 != i0);
    match &body[0] {
        Stmt::Store { index, .. } => assert_eq!(*index, Expr::input(*i1, DType::I32)),
        s => panic!("{s:?}"),
    }
}

#[test]
fn reduction_parts_have_their_own_row_length() {
    let k = FusedKernel::parse(
        "fused 1\ntensors 1 float32 float32 float32\nsizes\nscalars\nreduction 1\n\
         part 3 (const int32 5)\nloop\nload a float32 0 r0_index\nreduce sum b float32 a\n\
         end\nstore 1 xindex b\nend\n\
         part 2 (const int32 1)\nstore 2 xindex (cast float32 r0_numel)\nend\n",
    )
    .unwrap();
    assert!(k.has_parts());
    let [Stmt::Part { rows: Some(r0), .. }, Stmt::Part {
        rows: Some(r1),
        body,
        ..
    }] = &k.body[..]
    else {
        panic!("{:?}", k.body)
    };
    assert!(r0.0 != RNUMEL && r1.0 != r0.0);
    match &body[0] {
        Stmt::Store { value, .. } => {
            assert_eq!(*value, Expr::input(r1.0, DType::I32).cast(DType::F32))
        }
        s => panic!("{s:?}"),
    }
    // Steps take every part's rows at the launch's longest.
    assert_eq!(k.row_steps(5), 5);
}

#[test]
fn row_steps_weigh_helper_loops() {
    let program = |value: &str| {
        FusedKernel::parse(&format!(
            "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 1\n\
             loop\nload a float32 0 r0_index\nreduce sum b float32 {value}\nend\n\
             store 1 xindex b\n"
        ))
        .unwrap()
    };
    assert_eq!(program("a").row_steps(100), 100);
    // A float32 logarithm's series: 16 steps an element at most.
    assert_eq!(program("(log a)").row_steps(100), 1_700);
    assert_eq!(program("(log (cast float64 a))").row_steps(100), 10_100);
}

#[test]
fn refuses_what_it_cannot_read() {
    for bad in [
        "fused 2\n",
        "fused 1\ntensors 1 float32\nsizes\nscalars\nreduction 0\nlet a (frobnicate xindex)\n",
        "fused 1\ntensors 1 float32\nsizes\nscalars\nreduction 0\nstore 0 xindex xindex\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\nreduce sum a float32 xindex\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\nloop\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars s\nreduction 0\n",
        // Parts stand alone, outside blocks and reductions.
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3\nend\n\
         let a xindex\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\npart 3\nend\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3 4\nend\n",
        "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3\n",
    ] {
        assert!(FusedKernel::parse(bad).is_err(), "{bad}");
    }
}

/// The linear cost found once when parsed is the statement-by-statement count at every row
/// length, for a plain reduction, one of parts and a looping helper's.
#[test]
fn row_steps_follow_the_row_length() {
    let programs = [
        "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 1\n\
         let x0 int32 xindex\nloop\nlet r0_1 int32 r0_index\n\
         load tmp0 float32 0 (add r0_1 (mul x0 r0_numel))\n\
         reduce sum tmp1 float32 (log tmp0)\nend\nloop\nlet r0_2 int32 r0_index\n\
         load tmp2 float32 0 (add r0_2 (mul x0 r0_numel))\n\
         store 1 (add r0_2 (mul x0 r0_numel)) (sub tmp2 tmp1)\nend\n",
        "fused 1\ntensors 1 float32 float32 float32\nsizes\nscalars\nreduction 1\n\
         part 3 (const int32 5)\nloop\n\
         load tmp0 float32 0 (add r0_index (mul xindex r0_numel))\n\
         reduce sum tmp1 float32 tmp0\nend\nstore 1 xindex tmp1\nend\n\
         part 15 (const int32 1)\nload tmp0 float32 0 xindex\n\
         store 2 xindex (exp tmp0)\nend\n",
    ];
    for text in programs {
        let k = FusedKernel::parse(text).unwrap();
        assert!(k.row_cost.is_some());
        for r in [0, 1, 2, 7, 64, 8192, 1 << 40] {
            assert_eq!(k.row_steps(r), k.count_row_steps(r), "{text} at {r}");
        }
    }
}

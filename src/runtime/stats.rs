//! Memory statistics in the shape of `c10::CachingDeviceAllocator::DeviceStats`.

/// One counter: current value, peak, and the running totals added and removed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stat {
    pub current: i64,
    pub peak: i64,
    pub allocated: i64,
    pub freed: i64,
}

impl Stat {
    /// Adds `amount` to the current value and the running total.
    pub fn increase(&mut self, amount: i64) {
        self.current += amount;
        self.allocated += amount;
        self.peak = self.peak.max(self.current);
    }

    /// Removes `amount` from the current value and adds it to the freed total.
    pub fn decrease(&mut self, amount: i64) {
        self.current -= amount;
        self.freed += amount;
    }

    /// Resets the peak to the current value.
    pub fn reset_peak(&mut self) {
        self.peak = self.current;
    }

    /// Resets the running totals.
    pub fn reset_accumulated(&mut self) {
        self.allocated = 0;
        self.freed = 0;
    }
}

/// The same counter for all pools, the small pool and the large pool (`c10::StatArray` order).
pub type StatArray = [Stat; 3];

/// Index of the small pool in a [`StatArray`].
pub const SMALL_POOL: usize = 1;
/// Index of the large pool in a [`StatArray`].
pub const LARGE_POOL: usize = 2;

/// Per-device statistics handed to the C++ allocator (field order mirrors `DeviceStats`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceStats {
    pub allocation: StatArray,
    pub segment: StatArray,
    pub active: StatArray,
    pub inactive_split: StatArray,
    pub allocated_bytes: StatArray,
    pub reserved_bytes: StatArray,
    pub active_bytes: StatArray,
    pub inactive_split_bytes: StatArray,
    pub requested_bytes: StatArray,
    pub num_alloc_retries: i64,
    pub num_ooms: i64,
    pub num_device_alloc: i64,
    pub num_device_free: i64,
}

/// Applies `f` to the aggregate entry and the pool entry of a stat array.
pub fn update(array: &mut StatArray, pool: usize, f: impl Fn(&mut Stat)) {
    f(&mut array[0]);
    f(&mut array[pool]);
}

impl DeviceStats {
    /// Every stat array, for bulk resets.
    fn arrays(&mut self) -> [&mut StatArray; 9] {
        [
            &mut self.allocation,
            &mut self.segment,
            &mut self.active,
            &mut self.inactive_split,
            &mut self.allocated_bytes,
            &mut self.reserved_bytes,
            &mut self.active_bytes,
            &mut self.inactive_split_bytes,
            &mut self.requested_bytes,
        ]
    }

    /// Resets every peak to its current value.
    pub fn reset_peak(&mut self) {
        for array in self.arrays() {
            array.iter_mut().for_each(Stat::reset_peak);
        }
    }

    /// Resets every running total and the event counters.
    pub fn reset_accumulated(&mut self) {
        for array in self.arrays() {
            array.iter_mut().for_each(Stat::reset_accumulated);
        }
        self.num_alloc_retries = 0;
        self.num_ooms = 0;
        self.num_device_alloc = 0;
        self.num_device_free = 0;
    }
}

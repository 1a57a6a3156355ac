"""Task templates of the Shop app, including the ones that pay in the wallet or read a note."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.shop.tasks_checkout import (
    BuyCheapestToAddress,
    BuyNoteList,
    BuyNow,
    CheckoutCart,
    PayOrder,
)
from phonebuddy.phoneworld.apps.shop.tasks_single import (
    AddBestSellerInBand,
    AddCheapest,
    AddToCart,
    CancelOrder,
    ChangeQuantity,
    ConfirmReceipt,
    Favourite,
    OrderStatus,
    ProductPrice,
    RemoveFromCart,
)
from phonebuddy.phoneworld.tasks.base import TaskTemplate

TEMPLATES: tuple[TaskTemplate, ...] = (
    AddToCart(),
    AddCheapest(),
    AddBestSellerInBand(),
    RemoveFromCart(),
    ChangeQuantity(),
    Favourite(),
    CancelOrder(),
    ConfirmReceipt(),
    ProductPrice(),
    OrderStatus(),
    BuyNow(),
    BuyCheapestToAddress(),
    PayOrder(),
    CheckoutCart(),
    BuyNoteList(),
)

// The period picker: choosing a year opens the page of that year's latest period (the option's value).
"use strict";
(function () {
  Array.prototype.forEach.call(document.querySelectorAll("select.year-picker"), function (select) {
    select.addEventListener("change", function () { window.location.href = select.value; });
  });
})();
